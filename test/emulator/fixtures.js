// @ts-check
'use strict';

/**
 * Seed data of the emulator. `buildSeed({ workOrderCount, now })` returns
 *   - `state`: the mutable in-memory data the server works on (exposed as emulator.state),
 *   - `fixtures`: the public, JSON-safe description of demo identities and handy ids
 *     (exposed as emulator.fixtures; note ids are decimal strings there).
 * Everything is deterministic except dates, which are relative to `now`.
 */

const N8N_CALLBACKS = [
	'http://localhost:5678/rest/oauth2-credential/callback',
	'http://127.0.0.1:5678/rest/oauth2-credential/callback',
];

const { isoLocal, isoOffset, noteRecord } = require('./http-util');
const { ServiceTime } = require('./service-time');
const {
	workOrderRecord,
	refreshNotesSummary,
	refreshAttachmentsSummary,
	timeIn,
} = require('./wo-record');
const { propertyNames } = require('../contract/reference');
const { seedPlaces, LOCAL_TRADE } = require('./places');

const HOUR = 3600 * 1000;

/** Top-level fields of a work order, in the order the reference lists them. */
const WORK_ORDER_FIELDS = propertyNames('WorkOrder');

/** The service's own time zone: US Eastern (the reference: plain dates are US Eastern local time). */
const SERVICE_TIME_ZONE = 'America/New_York';

/**
 * @param {{ workOrderCount?: number, now: number, time?: import('./service-time').ServiceTime, twinsInLocationZone?: boolean }} opts
 *   `time`: the service's zone, in which plain dates are written (default US Eastern);
 *   `twinsInLocationZone`: write the `_DTO` twins in the location's zone (default) or the service's
 */
function buildSeed({
	workOrderCount = 120,
	now,
	time = new ServiceTime(SERVICE_TIME_ZONE),
	twinsInLocationZone = true,
}) {
	/** @type {Record<number, any>} */
	const locations = {};
	/** @type {import('./wo-record').Clock} */
	const writer = {
		service: time,
		twin: (id) => (twinsInLocationZone && locations[id] ? timeIn(locations[id].TimeZone) : time),
		precision: (ms) => ms,
	};
	/** @param {number} ms */
	const isoLocal = (ms) => time.local(ms);
	/** @param {number} ms */
	const isoOffset = (ms) => time.dto(ms);
	const clients = {
		main: {
			clientId: 'wos-demo-client',
			clientSecret: 'wos-demo-secret-8a1f',
			callbackUris: [...N8N_CALLBACKS],
		},
		second: {
			clientId: 'wos-second-client',
			clientSecret: 'wos-second-secret-3c7d',
			callbackUris: [...N8N_CALLBACKS],
		},
		noCallback: {
			clientId: 'wos-nocallback-client',
			clientSecret: 'wos-nocallback-secret-5e2b',
			callbackUris: [],
		},
	};

	const ALL_SUBSCRIBER_PERMS = [
		'workorders.read',
		'notes.write',
		'checkin',
		'checklists.respond',
		'proposals.status',
		'subsidiaries.read',
	];

	/** @type {Record<string, any>} */
	const users = {
		subscriber: {
			username: 'demo.subscriber',
			password: 'Demo#Subscriber1',
			userId: 11,
			kind: 'subscriber',
			fullName: 'Sam Subscriber',
			email: 'sam.subscriber@demo-retail.example',
			subscriberId: 1001,
			approvalLimit: 5000,
			permissions: ALL_SUBSCRIBER_PERMS,
			webhookAdmin: false,
		},
		manager: {
			username: 'demo.manager',
			password: 'Demo#Manager1',
			userId: 12,
			kind: 'subscriber',
			fullName: 'Mia Manager',
			email: 'mia.manager@demo-retail.example',
			subscriberId: 1001,
			approvalLimit: 100000,
			permissions: ALL_SUBSCRIBER_PERMS,
			// "Super Admin" secondary role: may manage webhooks and read the signing key
			webhookAdmin: true,
		},
		// an approval-level (multi-level proposal approval, "MLP") user: the service refuses every
		// proposal move of such a user through the API (400, code 503)
		approvalLevel: {
			username: 'demo.approver',
			password: 'Demo#Approver1',
			userId: 14,
			kind: 'subscriber',
			fullName: 'Abe Approver',
			email: 'abe.approver@demo-retail.example',
			subscriberId: 1001,
			approvalLimit: 25000,
			approvalLevel: true,
			permissions: ALL_SUBSCRIBER_PERMS,
			webhookAdmin: false,
		},
		viewer: {
			username: 'demo.viewer',
			password: 'Demo#Viewer1',
			userId: 13,
			kind: 'subscriber',
			fullName: 'Val Viewer',
			email: 'val.viewer@demo-retail.example',
			subscriberId: 1001,
			approvalLimit: 0,
			permissions: ['workorders.read'],
		},
		universal: {
			username: 'demo.universal',
			password: 'Demo#Universal1',
			userId: 21,
			kind: 'universal',
			fullName: 'Uma Universal',
			email: 'uma.universal@holdings.example',
			subscriberId: 2000,
			children: [2001, 2002],
			approvalLimit: 10000,
			permissions: ALL_SUBSCRIBER_PERMS,
		},
		noSubsidiaryPermission: {
			username: 'demo.universal.limited',
			password: 'Demo#Limited1',
			userId: 22,
			kind: 'universal',
			fullName: 'Lou Limited',
			email: 'lou.limited@holdings.example',
			subscriberId: 2000,
			children: [2001],
			approvalLimit: 10000,
			permissions: ALL_SUBSCRIBER_PERMS.filter((p) => p !== 'subsidiaries.read'),
		},
		contractor: {
			username: 'demo.contractor',
			password: 'Demo#Contractor1',
			userId: 31,
			kind: 'contractor',
			fullName: 'Carl Contractor',
			email: 'carl@acme-fs.example',
			providerId: 3001,
			technicianId: 4001,
			approvalLimit: 0,
			permissions: ['workorders.read', 'notes.write', 'checkin', 'checklists.respond'],
			// "Provider Automation Admin" access level
			webhookAdmin: true,
		},
	};

	/** @type {Record<number, any>} */
	const subscribers = {
		1001: {
			Id: 1001,
			Name: 'Demo Retail Co.',
			ParentId: null,
			IsUniversal: false,
			ChecklistsPerLocation: true,
			ProposalAlertEmails: [
				'proposal.alerts@demo-retail.example',
				'facilities.lead@demo-retail.example',
			],
		},
		2000: {
			Id: 2000,
			Name: 'Universal Holdings',
			ParentId: null,
			IsUniversal: true,
			ChecklistsPerLocation: false,
			ProposalAlertEmails: ['alerts@holdings.example'],
		},
		2001: {
			Id: 2001,
			Name: 'Holdings East',
			ParentId: 2000,
			IsUniversal: false,
			ChecklistsPerLocation: false,
			ProposalAlertEmails: ['east.alerts@holdings.example'],
		},
		2002: {
			Id: 2002,
			Name: 'Holdings West',
			ParentId: 2000,
			IsUniversal: false,
			ChecklistsPerLocation: false,
			ProposalAlertEmails: ['west.alerts@holdings.example'],
		},
	};

	/** @type {Record<number, any>} */
	const providers = {
		3001: {
			Id: 3001,
			Name: 'Acme Facility Services',
			Email: 'dispatch@acme-fs.example',
			Technicians: [4001, 4002],
		},
		3002: {
			Id: 3002,
			Name: 'Bright HVAC Inc.',
			Email: 'office@bright-hvac.example',
			Technicians: [4101],
		},
	};
	/** @type {Record<number, any>} */
	const technicians = {
		4001: { Id: 4001, Name: 'Tom Tech', ProviderId: 3001 },
		4002: { Id: 4002, Name: 'Rita Wrench', ProviderId: 3001 },
		4101: { Id: 4101, Name: 'Hank Heat', ProviderId: 3002 },
	};

	/** @type {Record<string, string>} */
	const ZONE_OF_STATE = {
		TX: 'America/Chicago',
		IL: 'America/Chicago',
		MA: 'America/New_York',
		CT: 'America/New_York',
		CO: 'America/Denver',
	};
	/** @param {number} id @param {number} sub @param {string} name @param {string} city @param {string} st @param {number} lat @param {number} lon @param {boolean} enabled */
	const loc = (id, sub, name, city, st, lat, lon, enabled) => {
		locations[id] = {
			Id: id,
			SubscriberId: sub,
			Name: name,
			StoreId: `S${id}`,
			City: city,
			State: st,
			Latitude: lat,
			Longitude: lon,
			ChecklistsEnabled: enabled,
			TimeZone: ZONE_OF_STATE[st] || SERVICE_TIME_ZONE,
		};
	};
	loc(501, 1001, 'Store #501 Dallas Downtown', 'Dallas', 'TX', 32.7767, -96.797, true);
	loc(502, 1001, 'Store #502 Fort Worth', 'Fort Worth', 'TX', 32.7555, -97.3308, true);
	loc(503, 1001, 'Store #503 Houston', 'Houston', 'TX', 29.7604, -95.3698, false);
	loc(504, 1001, 'Store #504 Austin', 'Austin', 'TX', 30.2672, -97.7431, true);
	loc(505, 1001, 'Store #505 Plano', 'Plano', 'TX', 33.0198, -96.6989, true);
	loc(601, 2000, 'Holdings HQ', 'Chicago', 'IL', 41.8781, -87.6298, true);
	loc(701, 2001, 'East Store Boston', 'Boston', 'MA', 42.3601, -71.0589, true);
	loc(702, 2001, 'East Store Hartford', 'Hartford', 'CT', 41.7658, -72.6734, true);
	loc(801, 2002, 'West Store Denver', 'Denver', 'CO', 39.7392, -104.9903, true);

	/** @type {Record<number, any>} */
	const questions = {
		9101: { Id: 9101, Text: 'Air filters replaced?', QuestionType: 0, PictureFlag: 1, Options: [] },
		9102: {
			Id: 9102,
			Text: 'Condition of the unit',
			QuestionType: 1,
			PictureFlag: 0,
			Options: [
				{ Id: 91021, Label: 'Good', IsConditionalFollowUp: false },
				{ Id: 91022, Label: 'Needs repair', IsConditionalFollowUp: true },
				{ Id: 91023, Label: 'Replaced', IsConditionalFollowUp: false },
			],
		},
		9103: {
			Id: 9103,
			Text: 'Describe the work performed',
			QuestionType: 2,
			PictureFlag: 0,
			Options: [],
		},
		9104: {
			Id: 9104,
			Text: 'Discharge air temperature (F)',
			QuestionType: 4,
			PictureFlag: 1,
			Options: [],
		},
		9105: {
			Id: 9105,
			Text: 'Photo of the unit nameplate taken?',
			QuestionType: 0,
			PictureFlag: 2,
			Options: [],
		},
		9201: { Id: 9201, Text: 'Power restored?', QuestionType: 0, PictureFlag: 1, Options: [] },
		9301: { Id: 9301, Text: 'Thermostat checked?', QuestionType: 0, PictureFlag: 0, Options: [] },
	};
	const checklists = [
		{
			Id: 801,
			SubscriberId: 1001,
			Trade: 'HVAC',
			Category: 'PREVENTIVE MAINTENANCE',
			QuestionIds: [9101, 9102, 9103, 9104, 9105],
		},
		{ Id: 802, SubscriberId: 1001, Trade: 'ELECTRICAL', Category: 'REPAIR', QuestionIds: [9201] },
		{
			Id: 811,
			SubscriberId: 2001,
			Trade: 'HVAC',
			Category: 'PREVENTIVE MAINTENANCE',
			QuestionIds: [9301],
		},
	];

	// ---- work orders -------------------------------------------------------------------------
	/** @type {Record<number, any>} */
	const workOrders = {};
	/** the part of the state the work order records are built from (its public objects are cached in it) */
	/** @type {any} */
	const state = { subscribers, providers, locations };
	const callers = ['Store Manager', 'Assistant Manager', 'Facilities Desk', 'Night Supervisor'];
	const STATUSES = [
		['OPEN', 'DISPATCH CONFIRMED'],
		['IN PROGRESS', 'ON SITE'],
		['OPEN', 'PARTS ON ORDER'],
		['COMPLETED', 'PENDING CONFIRMATION'],
		['IN PROGRESS', 'INCOMPLETE'],
	];
	const TRADES = [
		['HVAC', 'PREVENTIVE MAINTENANCE'],
		['PLUMBING', 'REPAIR'],
		['ELECTRICAL', 'REPAIR'],
		['REFRIGERATION', 'MAINTENANCE'],
		['HVAC', 'REPAIR'],
		['DOORS', 'REPAIR'],
	];
	/**
	 * @param {number} id
	 * @param {{ sub: number, provider: number, location: number, trade: string[], status: string[], description: string, nte: number, ageHours: number, invoiced?: boolean, recallOf?: number | null, caller?: string }} o
	 */
	const wo = (id, o) => {
		const created = now - o.ageHours * HOUR;
		workOrders[id] = workOrderRecord(state, writer, {
			id,
			locationId: o.location,
			subscriberId: o.sub,
			providerId: o.provider,
			status: { Primary: o.status[0], Extended: o.status[1] },
			trade: o.trade[0],
			category: o.trade[1],
			caller: o.caller,
			description: o.description,
			nte: o.nte,
			invoiced: o.invoiced,
			recallOf: o.recallOf,
			dates: {
				CallDate: created,
				CreatedDate: created,
				ScheduledDate: created + 48 * HOUR,
				UpdatedDate: created + HOUR,
			},
		});
	};

	const OPEN = ['OPEN', 'DISPATCH CONFIRMED'];
	const WO = {
		checklist: 90000001,
		checklistDisabledLocation: 90000002,
		noChecklist: 90000003,
		electricalChecklist: 90000004,
		notes: 90000005,
		proposal: 90000006,
		invoiced: 90000007,
		overLimit: 90000008,
		otherProvider: 90000009,
		onHold: 90000010,
		duplicateA: 90000011,
		duplicateB: 90000012,
		recall: 90000013,
		nearby: 90000014,
	};
	const handyCount = 14;
	const mainCount = Math.max(workOrderCount, handyCount + 1);
	// age: spread over ~55 days so everything is within the 90-day OData window
	const age = (/** @type {number} */ id) => 6 + (((id - 90000000) * 11) % (55 * 24));
	wo(WO.checklist, {
		sub: 1001,
		provider: 3001,
		location: 501,
		trade: TRADES[0],
		status: OPEN,
		description: 'Quarterly HVAC preventive maintenance, rooftop unit 1',
		nte: 750,
		ageHours: age(WO.checklist),
	});
	wo(WO.checklistDisabledLocation, {
		sub: 1001,
		provider: 3001,
		location: 503,
		trade: TRADES[0],
		status: OPEN,
		description: 'Quarterly HVAC preventive maintenance, Houston',
		nte: 750,
		ageHours: age(WO.checklistDisabledLocation),
	});
	wo(WO.noChecklist, {
		sub: 1001,
		provider: 3001,
		location: 501,
		trade: TRADES[1],
		status: OPEN,
		description: 'Leaking faucet in restroom',
		nte: 300,
		ageHours: age(WO.noChecklist),
	});
	wo(WO.electricalChecklist, {
		sub: 1001,
		provider: 3001,
		location: 502,
		trade: TRADES[2],
		status: ['IN PROGRESS', 'ON SITE'],
		description: 'Breaker trips in sales floor lighting',
		nte: 500,
		ageHours: age(WO.electricalChecklist),
	});
	wo(WO.notes, {
		sub: 1001,
		provider: 3001,
		location: 501,
		trade: TRADES[4],
		status: ['IN PROGRESS', 'INCOMPLETE'],
		description: 'AC blowing warm air at checkout',
		nte: 1200,
		ageHours: age(WO.notes),
	});
	wo(WO.proposal, {
		sub: 1001,
		provider: 3001,
		location: 504,
		trade: TRADES[3],
		status: ['OPEN', 'PROPOSAL SUBMITTED'],
		description: 'Walk-in cooler compressor replacement',
		nte: 1500,
		ageHours: age(WO.proposal),
	});
	wo(WO.invoiced, {
		sub: 1001,
		provider: 3001,
		location: 505,
		trade: TRADES[4],
		status: ['COMPLETED', 'INVOICED'],
		description: 'Replace condenser fan motor',
		nte: 900,
		ageHours: age(WO.invoiced),
		invoiced: true,
	});
	wo(WO.overLimit, {
		sub: 1001,
		provider: 3001,
		location: 501,
		trade: TRADES[4],
		status: ['OPEN', 'PROPOSAL SUBMITTED'],
		description: 'Replace rooftop unit 2',
		nte: 2000,
		ageHours: age(WO.overLimit),
	});
	wo(WO.otherProvider, {
		sub: 1001,
		provider: 3002,
		location: 502,
		trade: TRADES[4],
		status: OPEN,
		description: 'Heat pump inspection (Bright HVAC)',
		nte: 400,
		ageHours: age(WO.otherProvider),
	});
	wo(WO.onHold, {
		sub: 1001,
		provider: 3001,
		location: 504,
		trade: TRADES[5],
		status: ['OPEN', 'PROPOSAL SUBMITTED'],
		description: 'Automatic entrance door sensor replacement',
		nte: 850,
		ageHours: age(WO.onHold),
	});
	wo(WO.duplicateA, {
		sub: 1001,
		provider: 3001,
		location: 502,
		trade: TRADES[1],
		status: OPEN,
		description: 'Clogged drain in back room',
		nte: 250,
		ageHours: age(WO.duplicateA),
	});
	wo(WO.duplicateB, {
		sub: 1001,
		provider: 3001,
		location: 502,
		trade: TRADES[1],
		status: OPEN,
		description: 'Clogged drain in back room',
		nte: 250,
		ageHours: age(WO.duplicateB),
		caller: 'Night Supervisor',
	});
	wo(WO.recall, {
		sub: 1001,
		provider: 3001,
		location: 502,
		trade: TRADES[2],
		status: OPEN,
		description: 'Breaker trips again after repair',
		nte: 500,
		ageHours: age(WO.recall),
		recallOf: WO.electricalChecklist,
	});
	wo(WO.nearby, {
		sub: 1001,
		provider: 3001,
		location: 505,
		trade: TRADES[3],
		status: OPEN,
		description: 'Ice machine not producing ice',
		nte: 350,
		ageHours: age(WO.nearby),
	});
	const mainLocations = [501, 502, 504, 505, 503];
	for (let k = handyCount + 1; k <= mainCount; k++) {
		const id = 90000000 + k;
		wo(id, {
			sub: 1001,
			provider: k % 10 === 9 ? 3002 : 3001,
			location: mainLocations[k % mainLocations.length],
			trade: TRADES[k % TRADES.length],
			status: STATUSES[k % STATUSES.length],
			description: `Routine service request #${k}`,
			nte: 250 + (k % 8) * 125,
			ageHours: age(id),
			caller: callers[k % callers.length],
		});
	}
	// universal parent and its children: served by Bright HVAC (provider 3002)
	const childWo = {
		universalParent: [92000001, 92000002, 92000003],
		child2001: [92001001, 92001002, 92001003, 92001004, 92001005, 92001006],
		child2002: [92002001, 92002002, 92002003, 92002004],
	};
	childWo.universalParent.forEach((id, k) =>
		wo(id, {
			sub: 2000,
			provider: 3002,
			location: 601,
			trade: TRADES[(k + 1) % TRADES.length],
			status: STATUSES[k % STATUSES.length],
			description: `Holdings HQ request #${k + 1}`,
			nte: 400,
			ageHours: 10 + k * 30,
		}),
	);
	childWo.child2001.forEach((id, k) =>
		wo(id, {
			sub: 2001,
			provider: 3002,
			location: k % 2 ? 702 : 701,
			trade: TRADES[k % TRADES.length],
			status: STATUSES[k % STATUSES.length],
			description: `Holdings East request #${k + 1}`,
			nte: 600,
			ageHours: 12 + k * 30,
		}),
	);
	childWo.child2002.forEach((id, k) =>
		wo(id, {
			sub: 2002,
			provider: 3002,
			location: 801,
			trade: TRADES[(k + 2) % TRADES.length],
			status: STATUSES[k % STATUSES.length],
			description: `Holdings West request #${k + 1}`,
			nte: 650,
			ageHours: 14 + k * 30,
		}),
	);

	// ---- notes (ids are BigInt) ----------------------------------------------------------------
	/** @type {Record<number, any[]>} */
	const notes = {};
	/**
	 * @param {number} woId @param {bigint} id @param {string} text @param {number} ageHours @param {string} by @param {Record<string, any>} [extra]
	 */
	const note = (woId, id, text, ageHours, by, extra = {}) => {
		const at = now - ageHours * HOUR;
		const list = (notes[woId] = notes[woId] || []);
		list.push(
			noteRecord({
				id,
				number: list.length + 1,
				workOrderId: woId,
				text,
				at,
				createdBy: by,
				companyName: by === 'Sam Subscriber' || by === 'Uma Universal' ? 'Demo Retail' : 'Acme FS',
				extra,
				createdAt: 0,
				time,
			}),
		);
	};
	note(WO.notes, 15001n, 'Technician dispatched, ETA 2 hours.', 60, 'Acme Facility Services');
	note(WO.notes, 2147483648n, 'Compressor amps high; ordering capacitor.', 50, 'Tom Tech', {
		ActionRequired: true,
	});
	note(
		WO.notes,
		9007199254740993n,
		'Capacitor replaced, unit cooling. Photo attached.',
		40,
		'Tom Tech',
	);
	note(
		WO.notes,
		9223372036854775807n,
		'Store confirms temperature back to normal.',
		30,
		'Sam Subscriber',
	);
	note(WO.checklist, 15002n, 'Please bring ladder for roof access.', 20, 'Sam Subscriber');
	note(childWo.child2001[0], 16001n, 'East store: key at the front desk.', 20, 'Uma Universal');

	/** @type {any[]} */
	const attachments = [];
	const fixtureAttachment = {
		Id: 880001,
		WorkOrderId: WO.notes,
		NoteId: 9007199254740993n,
		CheckListResponseId: null,
		Source: 'Note',
		FileName: 'capacitor.jpg',
		Description: 'Replaced capacitor',
		Visibility: null,
		ContentType: 'image/jpeg',
		Size: 4,
		DocumentPath: '#workorders/3f9e1c2a-0000-4000-8000-000000880001',
		ThumbnailPath: '#workorders/3f9e1c2a-0000-4000-8000-000000880001-thumb',
		HasThumbnail: true,
		UploadedBy: 'Tom Tech',
		TimeStamp: isoLocal(now - 40 * HOUR),
		_at: now - 40 * HOUR,
		sha256: null,
		data: Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
	};
	attachments.push(fixtureAttachment);
	notes[WO.notes]
		.find((n) => n.Id === fixtureAttachment.NoteId)
		.Attachments.push(fixtureAttachment);
	for (const [woId, list] of Object.entries(notes))
		refreshNotesSummary(workOrders[Number(woId)], list);
	refreshAttachmentsSummary(workOrders[WO.notes], 1);

	// ---- proposals -----------------------------------------------------------------------------
	/** @type {Record<number, any>} */
	const proposals = {};
	/** @param {number} id @param {Record<string, any>} o */
	const proposal = (id, o) => {
		const created = now - (o.ageHours || 24) * HOUR;
		proposals[id] = {
			Id: id,
			Number: `P-${id}`,
			SubscriberId: o.sub,
			ProviderId: o.provider,
			WorkOrderId: o.wo,
			Amount: o.amount,
			Currency: 'USD',
			Description: o.description,
			Status: o.status || 'Open',
			RejectReasonCodeId: null,
			ActionSource: null,
			CreatedDate: isoLocal(created),
			CreatedDateDto: isoOffset(created),
			history: [{ action: 'create', from: null, to: 'Open', at: isoOffset(created), by: 'system' }],
		};
		if (o.status && o.status !== 'Open') {
			proposals[id].history.push({
				action: 'fixture',
				from: 'Open',
				to: o.status,
				at: isoOffset(created + HOUR),
				by: 'system',
			});
		}
	};
	const PROPOSALS = {
		open: 61001,
		onHold: 61002,
		invoiced: 61003,
		noWorkOrder: 61004,
		overLimit: 61005,
		approved: 61006,
		rejected: 61007,
		otherProvider: 61008,
		child2001: 62001,
	};
	proposal(PROPOSALS.open, {
		sub: 1001,
		provider: 3001,
		wo: WO.proposal,
		amount: 1200,
		description: 'Replace walk-in cooler compressor',
	});
	proposal(PROPOSALS.onHold, {
		sub: 1001,
		provider: 3001,
		wo: WO.onHold,
		amount: 800,
		description: 'Door sensor replacement',
		status: 'OnHold',
	});
	proposal(PROPOSALS.invoiced, {
		sub: 1001,
		provider: 3001,
		wo: WO.invoiced,
		amount: 500,
		description: 'Additional fan blade',
	});
	proposal(PROPOSALS.noWorkOrder, {
		sub: 1001,
		provider: 3001,
		wo: null,
		amount: 300,
		description: 'Unsolicited proposal: LED retrofit',
	});
	proposal(PROPOSALS.overLimit, {
		sub: 1001,
		provider: 3001,
		wo: WO.overLimit,
		amount: 7500,
		description: 'Rooftop unit replacement',
	});
	proposal(PROPOSALS.approved, {
		sub: 1001,
		provider: 3001,
		wo: WO.notes,
		amount: 450,
		description: 'Capacitor and contactor',
		status: 'Approved',
	});
	proposal(PROPOSALS.rejected, {
		sub: 1001,
		provider: 3001,
		wo: WO.electricalChecklist,
		amount: 980,
		description: 'Panel upgrade',
		status: 'Rejected',
	});
	proposal(PROPOSALS.otherProvider, {
		sub: 1001,
		provider: 3002,
		wo: WO.otherProvider,
		amount: 650,
		description: 'Heat pump coil cleaning',
	});
	proposal(PROPOSALS.child2001, {
		sub: 2001,
		provider: 3002,
		wo: childWo.child2001[1],
		amount: 700,
		description: 'East store lighting',
	});

	const rejectionReasons = [
		{ Id: 1, Code: 'PRICE_TOO_HIGH', Description: 'Price is too high' },
		{ Id: 2, Code: 'SCOPE_NOT_APPROVED', Description: 'Scope of work not approved' },
		{ Id: 3, Code: 'DUPLICATE', Description: 'Duplicate proposal' },
		{ Id: 4, Code: 'WORK_NOT_NEEDED', Description: 'Work no longer needed' },
		{ Id: 5, Code: 'OTHER', Description: 'Other' },
	];

	Object.assign(state, {
		clients: Object.fromEntries(
			Object.values(clients).map((c) => [c.clientId, { ...c, callbackUris: [...c.callbackUris] }]),
		),
		users: Object.fromEntries(
			Object.values(users).map((u) => [u.username.toLowerCase(), { ...u }]),
		),
		subscribers,
		providers,
		technicians,
		locations,
		questions,
		checklists,
		workOrders,
		notes,
		attachments,
		proposals,
		rejectionReasons,
		checklistResponses: /** @type {any[]} */ ([]),
		checkIns: /** @type {any[]} */ ([]),
		workOrderChanges: /** @type {any[]} */ ([]),
		notifications: /** @type {any[]} */ ([]),
		tokens: /** @type {any[]} */ ([]),
		authorizationCodes: /** @type {any[]} */ ([]),
	});

	seedPlaces(state, now);

	const userFixture = (/** @type {any} */ u) => {
		const { permissions, ...rest } = u;
		return { ...rest, permissions: [...permissions] };
	};
	const fixtures = {
		clients,
		users: Object.fromEntries(Object.entries(users).map(([k, u]) => [k, userFixture(u)])),
		subscribers: {
			main: 1001,
			universalParent: 2000,
			children: [
				{ Id: 2001, Name: subscribers[2001].Name },
				{ Id: 2002, Name: subscribers[2002].Name },
			],
			perLocationChecklists: 1001,
			proposalAlertEmails: {
				1001: [...subscribers[1001].ProposalAlertEmails],
				2001: [...subscribers[2001].ProposalAlertEmails],
			},
		},
		providers: {
			main: { id: 3001, email: providers[3001].Email },
			other: { id: 3002, email: providers[3002].Email },
		},
		providerId: 3001,
		technicianId: 4001,
		otherTechnicianId: 4101,
		locations: {
			checklistsEnabled: 501,
			checklistsDisabled: 503,
			duplicatesAndRecalls: 502,
			all: Object.keys(locations).map(Number),
			child2001: 701,
			coordinates: { 501: { latitude: 32.7767, longitude: -96.797 } },
		},
		workOrders: {
			...WO,
			mainCount,
			mainFirst: 90000001,
			mainLast: 90000000 + mainCount,
			firstNewId: 90000000 + mainCount + 1,
			contractorVisibleCount: Object.values(workOrders).filter((w) => w.ProviderId === 3001).length,
			universalParent: childWo.universalParent,
			child2001: childWo.child2001,
			child2002: childWo.child2002,
		},
		checklists: {
			hvacPm: {
				id: 801,
				trade: 'HVAC',
				category: 'PREVENTIVE MAINTENANCE',
				questionIds: [9101, 9102, 9103, 9104, 9105],
			},
			electricalRepair: { id: 802, trade: 'ELECTRICAL', category: 'REPAIR', questionIds: [9201] },
			child2001HvacPm: {
				id: 811,
				trade: 'HVAC',
				category: 'PREVENTIVE MAINTENANCE',
				questionIds: [9301],
			},
		},
		questions: {
			acknowledgement: 9101,
			selector: 9102,
			selectorOptions: { good: 91021, needsRepair: 91022, replaced: 91023 },
			selectorConditional: { questionId: 9102, optionId: 91022 },
			selectorPlain: { questionId: 9102, optionId: 91021, label: 'Good' },
			textEntry: 9103,
			numericInput: 9104,
			pictureRequired: 9105,
			electrical: 9201,
			child2001: 9301,
		},
		proposals: {
			...PROPOSALS,
			amounts: Object.fromEntries(
				Object.entries(PROPOSALS).map(([k, id]) => [k, proposals[id].Amount]),
			),
		},
		notes: {
			workOrderId: WO.notes,
			small: '15001',
			big31: '2147483648',
			big53: '9007199254740993',
			max64: '9223372036854775807',
			withAttachment: '9007199254740993',
			attachmentId: fixtureAttachment.Id,
			firstNewId: '9007199254741000',
		},
		rejectionReasons: rejectionReasons.map((r) => ({ ...r })),
		places: placesFixture(state),
	};

	return { state, fixtures };
}

/**
 * The places' handy IDs (places.js): the trades of subscriber 1001 by name, the trade only some of
 * its locations have, the one-trade providers, assets by kind at store 501.
 * @param {any} state
 */
function placesFixture(state) {
	return {
		trades: Object.fromEntries(state.trades[1001].map((/** @type {any} */ t) => [t.Name, t.Id])),
		localTrade: { name: LOCAL_TRADE.name, locations: [...LOCAL_TRADE.locations] },
		providers: { refrigerationOnly: 3003, doNotDispatch: 3004 },
		providersByTrade: Object.fromEntries(
			Object.entries(state.providerTrades[1001]).map(([k, v]) => [k.toUpperCase(), [...v]]),
		),
		assets: {
			walkInFreezer: 50101,
			reachInCooler: 50102,
			rooftopUnit: 50103,
			mainPanel: 50104,
			frontDoor: 50105,
			otherSubscriber: 70101,
		},
		assetsPerMainLocation: 5,
		noteHeaders: { public: 'Access', private: 'Alarm Code' },
	};
}

module.exports = {
	buildSeed,
	isoLocal,
	isoOffset,
	N8N_CALLBACKS,
	WORK_ORDER_FIELDS,
	SERVICE_TIME_ZONE,
};
