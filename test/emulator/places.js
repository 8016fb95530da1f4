// @ts-check
'use strict';

/**
 * The places around a work order (service-reference-c.md, "Locations, assets, trades,
 * providers"): the trades of each subscriber and at each location, the providers of each trade,
 * the assets (equipment) at each location and the location notes. Seeded from the fixtures'
 * locations so that every seeded work order fits: its location is a location here, its trade a
 * trade at that location, its provider one of that trade's providers.
 *
 * Stored as plain records with instants (ms); answered as part C's objects (`C.Location`,
 * `C.LocationWithTimezoneName`, `C.LocationNote`, `C.Trade`, `C.AssetResponse`, `C.ProviderInfo`:
 * every property, nulls included), built at answer time so that a change of the service's time
 * zone rewrites their dates as it does a work order's.
 *
 * Changes made here raise the service's events: LocationNoteHeaderCreated /
 * LocationNoteHeaderUpdated / LocationNoteHeaderDeleted with LocationNotesChanged, LocationUpdated,
 * AssetCreated, AssetUpdated.
 */

const { make, SHIFT_TO_EST, providerObject } = require('./objects');
const { timeIn } = require('./wo-record');

const DAY = 24 * 3600 * 1000;

/** Trades of every subscriber, by name (the names work orders carry), in the order of their IDs. */
const TRADE_NAMES = ['HVAC', 'PLUMBING', 'ELECTRICAL', 'REFRIGERATION', 'DOORS'];
/** A trade subscriber 1001 has only at some locations. */
const LOCAL_TRADE = { name: 'GENERAL MAINTENANCE', locations: [501, 502] };

/** Region, district, street, ZIP and phone of each fixture location. */
const ADDRESSES = {
	501: ['Southwest', 'North Texas', '1500 Main St', '75201', '214-555-0101'],
	502: ['Southwest', 'North Texas', '300 Houston St', '76102', '817-555-0102'],
	503: ['Southwest', 'Gulf Coast', '800 Travis St', '77002', '713-555-0103'],
	504: ['Southwest', 'Central Texas', '600 Congress Ave', '78701', '512-555-0104'],
	505: ['Southwest', 'North Texas', '5800 Legacy Dr', '75024', '972-555-0105'],
	601: ['Midwest', 'Chicago Metro', '233 S Wacker Dr', '60606', '312-555-0601'],
	701: ['Northeast', 'New England', '1 Federal St', '02110', '617-555-0701'],
	702: ['Northeast', 'New England', '185 Asylum St', '06103', '860-555-0702'],
	801: ['Mountain', 'Front Range', '1600 Glenarm Pl', '80202', '303-555-0801'],
};

/** Windows names of the fixtures' zones (TimeZoneMsName) and their short texts. */
const MS_ZONES = {
	'America/New_York': ['Eastern Standard Time', 'EST', 1],
	'America/Chicago': ['Central Standard Time', 'CST', 2],
	'America/Denver': ['Mountain Standard Time', 'MST', 3],
};

/**
 * The assets of a location: [trade, type, manufacturer, model] by location kind. Every main store
 * (subscriber 1001) has a walk-in freezer and a reach-in cooler (refrigeration), a rooftop unit
 * (HVAC), a panel (electrical) and a door; the other subscribers' locations a few.
 */
const MAIN_ASSETS = [
	['REFRIGERATION', 'Walk-in Freezer', 'Kolpak', 'KF7-0810-CR'],
	['REFRIGERATION', 'Reach-in Cooler', 'True', 'T-49-HC'],
	['HVAC', 'Rooftop Unit', 'Carrier', '48TCED08'],
	['ELECTRICAL', 'Main Panel', 'Square D', 'QO130L200PG'],
	['DOORS', 'Front Sliding Door', 'Stanley', 'Dura-Glide 2000'],
];
const OTHER_ASSETS = [
	['HVAC', 'Rooftop Unit', 'Trane', 'YSC060'],
	['REFRIGERATION', 'Walk-in Cooler', 'Kolpak', 'KC8-1010-CR'],
];

/**
 * @typedef {{ Id: number, HeaderId: number, Header: string, Value: string, private: boolean, at: number }} StoredNote
 * @typedef {{ Id: number, LocationId: number, SubscriberId: number, Trade: string, Type: string,
 *   Manufacturer: string, ModelNo: string, SerialNo: string, Tag: string, Area: string,
 *   installedAt: number, createdAt: number, modifiedAt: number, modifiedBy: string | null,
 *   Active: boolean, UsesRefrigerant: number, WorkOrderIds: number[] }} StoredAsset
 */

/**
 * The places of a seeded state: added to `state` as `trades` (subscriber → [{ Id, Name,
 * SubscriberId }]), `locationTrades` (location → names), `providerTrades` (subscriber → trade
 * name (lower case) → provider IDs), `assets` (by Id), `locationNotes` (location → notes),
 * `placesInfo` (location → address data). Adds the providers that serve one trade only.
 * @param {any} state @param {number} now
 */
function seedPlaces(state, now) {
	/** @type {Record<number, Array<{ Id: number, Name: string, SubscriberId: number }>>} */
	const trades = {};
	/** @type {Record<number, Record<string, number[]>>} */
	const providerTrades = {};
	let block = 1;
	for (const sub of Object.values(state.subscribers)) {
		const names = sub.Id === 1001 ? [...TRADE_NAMES, LOCAL_TRADE.name] : TRADE_NAMES;
		// subscriber 1001's trade IDs are the checklists' (api-workorder-writes.js TRADES: HVAC 1 ...
		// GENERAL MAINTENANCE 6); the others' have their own block
		const base = sub.Id === 1001 ? 0 : ++block * 100;
		trades[sub.Id] = names.map((Name, k) => ({ Id: base + k + 1, Name, SubscriberId: sub.Id }));
		/** @type {Record<string, number[]>} */
		const byTrade = {};
		for (const name of names) {
			// Acme (3001) serves subscriber 1001 in every trade, Bright HVAC (3002) every trade of
			// every subscriber but general maintenance (its seeded work orders have every trade)
			const ids = sub.Id === 1001 ? [3001] : [];
			if (name !== LOCAL_TRADE.name) ids.push(3002);
			if (sub.Id === 1001 && name === 'REFRIGERATION') ids.push(3003);
			if (sub.Id === 1001 && name === 'DOORS') ids.push(3004);
			byTrade[name.toLowerCase()] = ids;
		}
		providerTrades[sub.Id] = byTrade;
	}
	state.providers[3003] = {
		Id: 3003,
		Name: 'Polar Refrigeration LLC',
		Email: 'service@polar-refrigeration.example',
		Technicians: [],
		DoNotDispatch: false,
	};
	state.providers[3004] = {
		Id: 3004,
		Name: 'Swing Door Repair Co.',
		Email: 'jobs@swing-door.example',
		Technicians: [],
		DoNotDispatch: true,
	};
	// the public Provider objects work orders refer to, when the work orders were built first
	if (state.objects)
		for (const id of [3003, 3004])
			state.objects.providers[id] = providerObject(state.providers[id]);

	/** @type {Record<number, string[]>} */
	const locationTrades = {};
	/** @type {Record<number, StoredAsset>} */
	const assets = {};
	/** @type {Record<number, StoredNote[]>} */
	const locationNotes = {};
	for (const loc of Object.values(state.locations)) {
		locationTrades[loc.Id] = trades[loc.SubscriberId]
			.map((t) => t.Name)
			.filter((name) => name !== LOCAL_TRADE.name || LOCAL_TRADE.locations.includes(loc.Id));
		const kinds = loc.SubscriberId === 1001 ? MAIN_ASSETS : OTHER_ASSETS;
		kinds.forEach(([trade, type, manufacturer, model], k) => {
			const id = loc.Id * 100 + k + 1;
			const installedAt = now - (400 + k * 180 + (loc.Id % 7) * 30) * DAY;
			assets[id] = {
				Id: id,
				LocationId: loc.Id,
				SubscriberId: loc.SubscriberId,
				Trade: trade,
				Type: type,
				Manufacturer: manufacturer,
				ModelNo: model,
				SerialNo: `SN${loc.Id}${String(k + 1).padStart(3, '0')}`,
				Tag: `${type
					.split(/[\s-]+/)
					.map((w) => w[0])
					.join('')
					.toUpperCase()}-${loc.Id}-${k + 1}`,
				Area: trade === 'REFRIGERATION' ? 'Back of house' : trade === 'DOORS' ? 'Entrance' : 'Roof',
				installedAt,
				createdAt: installedAt,
				modifiedAt: installedAt + 30 * DAY,
				modifiedBy: null,
				Active: true,
				UsesRefrigerant: trade === 'REFRIGERATION' || trade === 'HVAC' ? 1 : 0,
				WorkOrderIds: [],
			};
		});
		locationNotes[loc.Id] = [
			{
				Id: loc.Id * 10 + 1,
				HeaderId: 1,
				Header: 'Access',
				Value: `Deliveries and contractors use the rear door of ${loc.Name}.`,
				private: false,
				at: now - 60 * DAY,
			},
			{
				Id: loc.Id * 10 + 2,
				HeaderId: 2,
				Header: 'Alarm Code',
				Value: `Ask the store manager; code changes monthly.`,
				private: true,
				at: now - 30 * DAY,
			},
		];
	}
	Object.assign(state, {
		trades,
		locationTrades,
		providerTrades,
		assets,
		locationNotes,
		_ids: { locationNote: 100001, noteHeader: 101, asset: 990001 },
	});
}

/** The trades a subscriber has (`C.Trade` objects). @param {any} state @param {number} subscriberId */
function tradesOf(state, subscriberId) {
	return (state.trades[subscriberId] || []).map((/** @type {any} */ t) => make('C.Trade', t));
}

/** The trades at a location (`C.Trade` objects). @param {any} state @param {any} loc */
function tradesAt(state, loc) {
	const names = new Set(state.locationTrades[loc.Id] || []);
	return tradesOf(state, loc.SubscriberId).filter((t) => names.has(t.Name));
}

/** The trade of a subscriber by name (without regard to case). @param {any} state @param {number} subscriberId @param {string} name */
function tradeNamed(state, subscriberId, name) {
	const lower = String(name).trim().toLowerCase();
	return (state.trades[subscriberId] || []).find(
		(/** @type {any} */ t) => t.Name.toLowerCase() === lower,
	);
}

/** Whether a location has a trade. @param {any} state @param {number} locationId @param {string} name */
function hasTrade(state, locationId, name) {
	const lower = String(name).trim().toLowerCase();
	return (state.locationTrades[locationId] || []).some(
		(/** @type {string} */ n) => n.toLowerCase() === lower,
	);
}

/** Provider IDs of a subscriber's trade. @param {any} state @param {number} subscriberId @param {string} name */
function providersOf(state, subscriberId, name) {
	return (state.providerTrades[subscriberId] || {})[String(name).trim().toLowerCase()] || [];
}

/** `C.ProviderInfo` of a provider. @param {any} provider */
function providerInfo(provider) {
	return make('C.ProviderInfo', {
		Id: provider.Id,
		Name: provider.Name,
		DoNotDispatch: provider.DoNotDispatch === true,
	});
}

/** The location fields the two location objects share. @param {import('./index').Emulator} emu @param {any} loc */
function locationValues(emu, loc) {
	const zone = loc.TimeZone || 'America/New_York';
	const [region, district, street, zip, phone] = /** @type {Record<number, string[]>} */ (
		ADDRESSES
	)[loc.Id] || [null, null, null, null, null];
	const [msName, short, zoneId] = /** @type {Record<string, any[]>} */ (MS_ZONES)[zone] || [
		null,
		null,
		null,
	];
	const sub = emu.state.subscribers[loc.SubscriberId];
	const notes = (emu.state.locationNotes[loc.Id] || []).filter(
		(/** @type {StoredNote} */ n) => !n.private,
	);
	return {
		Id: loc.Id,
		SubscriberId: loc.SubscriberId,
		SubscriberName: sub ? sub.Name : null,
		StoreId: loc.StoreId,
		Name: loc.Name,
		ShortName: loc.StoreId,
		Latitude: loc.Latitude,
		Longitude: loc.Longitude,
		LocationTypeId: 1,
		Address1: street,
		Address2: null,
		City: loc.City,
		State: loc.State,
		Region: region,
		District: district,
		Zip: zip,
		Country: 'USA',
		CountryId: 1,
		ClosedDate: null,
		OpenDate: emu.time.local(Date.UTC(2015, 2, 1, 14, 0, 0)),
		Status: 'Open',
		Phone: phone,
		HasInventory: false,
		TimeZoneInfoId: zoneId,
		TimeZoneShortDescription: short,
		TimeZoneMsName: msName,
		TimeZoneIanaName: zone,
		TypeLabel: 'Store',
		Notes: notes.map((/** @type {StoredNote} */ n) => noteObject(n)),
		TimeShiftToEST: /** @type {Record<string, number>} */ (SHIFT_TO_EST)[zone] ?? 0,
		FormattedAddress: street ? `${street}, ${loc.City}, ${loc.State} ${zip}` : null,
		LocationFormattedAddressTail: `${loc.City}, ${loc.State} ${zip ?? ''}`.trim(),
	};
}

/** `C.Location` (the OData set). @param {import('./index').Emulator} emu @param {any} loc */
function locationObject(emu, loc) {
	return make('C.Location', locationValues(emu, loc));
}

/** `C.LocationWithTimezoneName` (one location). @param {import('./index').Emulator} emu @param {any} loc */
function locationWithZone(emu, loc) {
	return make('C.LocationWithTimezoneName', {
		TimezoneName: loc.TimeZone || 'America/New_York',
		...locationValues(emu, loc),
	});
}

/** `C.LocationNote`. @param {StoredNote} n */
function noteObject(n) {
	return make('C.LocationNote', {
		Id: n.Id,
		HeaderId: n.HeaderId,
		Value: n.Value,
		Header: n.Header,
	});
}

/** `C.AssetResponse` of a stored asset. @param {import('./index').Emulator} emu @param {StoredAsset} a */
function assetObject(emu, a) {
	const loc = emu.state.locations[a.LocationId];
	const trade = tradeNamed(emu.state, a.SubscriberId, a.Trade);
	const twin = timeIn((loc && loc.TimeZone) || 'America/New_York');
	return make('C.AssetResponse', {
		Id: a.Id,
		Tag: a.Tag,
		Manufacturer: a.Manufacturer,
		ModelNo: a.ModelNo,
		SerialNo: a.SerialNo,
		LocationId: a.LocationId,
		Area: a.Area,
		StoreId: loc ? loc.StoreId : null,
		Trade: a.Trade,
		TradeId: trade ? trade.Id : null,
		Type: a.Type,
		InstallDate: emu.time.local(a.installedAt).slice(0, 10),
		UsesRefrigerant: a.UsesRefrigerant,
		Active: a.Active,
		IsLeased: false,
		Location: loc ? loc.Name : null,
		HasTagged: true,
		LastModifiedUseDate: emu.time.local(a.modifiedAt),
		LastModifiedUserName: a.modifiedBy,
		AssetTag: a.Tag,
		Description: `${a.Type} (${a.Manufacturer} ${a.ModelNo})`,
		HasComponents: false,
		HasCircuits: false,
		IsCircuit: false,
		SubscriberId: a.SubscriberId,
		IsLeakDetector: false,
		CreatedDate: emu.time.local(a.createdAt),
		ModifiedDate: emu.time.local(a.modifiedAt),
		HasChilds: false,
		ModifiedDateDto: twin.dto(a.modifiedAt),
	});
}

/** The main reference's `Asset` of a stored asset (a work order's `Asset`). @param {import('./index').Emulator} emu @param {StoredAsset} a */
function workOrderAsset(emu, a) {
	const { CustomAttributes, ...rest } = assetObject(emu, a);
	return make('Asset', { ...rest, CustomAttributes });
}

// ---- events ---------------------------------------------------------------------------------

const SYSTEM = { Id: 0, UserName: 'emulator', FullName: null, Email: null };

/** @param {any} user */
function updatedBy(user) {
	return user
		? { Id: user.userId, UserName: user.username, FullName: user.fullName, Email: user.email }
		: SYSTEM;
}

/** The location in events: Id, StoreId, names, subscriber, address, UpdatedDate. @param {import('./index').Emulator} emu @param {any} loc @param {any} [user] @param {Record<string, any>} [extra] */
function locationEvent(emu, loc, user, extra = {}) {
	const o = locationValues(emu, loc);
	const now = emu.now();
	return {
		Id: o.Id,
		StoreId: o.StoreId,
		Name: o.Name,
		ShortName: o.ShortName,
		SubscriberId: o.SubscriberId,
		Address1: o.Address1,
		City: o.City,
		State: o.State,
		Zip: o.Zip,
		Country: o.Country,
		Region: o.Region,
		District: o.District,
		UpdatedBy: updatedBy(user),
		UpdatedDate: emu.time.local(now),
		UpdatedDate_DTO: timeIn(loc.TimeZone || 'America/New_York').dto(now),
		...extra,
	};
}

/** @param {import('./index').Emulator} emu @param {string} type @param {any} loc @param {any} object */
function raise(emu, type, loc, object) {
	if (!emu.webhooks) return;
	emu.webhooks.raise(type, { object, subscriberId: loc.SubscriberId });
}

/** @param {import('./index').Emulator} emu @param {StoredAsset} a @param {'AssetCreated' | 'AssetUpdated'} type @param {any} [user] */
function assetEvent(emu, a, type, user) {
	if (!emu.webhooks) return;
	emu.webhooks.raise(type, {
		object: { ...assetObject(emu, a), UpdatedBy: updatedBy(user) },
		subscriberId: a.SubscriberId,
	});
}

// ---- changes --------------------------------------------------------------------------------

/**
 * Writes a location note under a header: a new header is created (LocationNoteHeaderCreated), a
 * known one (without regard to case) gets the new value (LocationNoteHeaderUpdated); both raise
 * LocationNotesChanged. Returns the stored note and whether it is new.
 * @param {import('./index').Emulator} emu @param {any} loc @param {string} header @param {string} value @param {any} [user]
 */
function writeLocationNote(emu, loc, header, value, user) {
	const notes = emu.state.locationNotes[loc.Id] || (emu.state.locationNotes[loc.Id] = []);
	const lower = header.trim().toLowerCase();
	let note = notes.find((/** @type {StoredNote} */ n) => n.Header.toLowerCase() === lower);
	const created = !note;
	if (!note) {
		note = {
			Id: emu.state._ids.locationNote++,
			HeaderId: emu.state._ids.noteHeader++,
			Header: header.trim(),
			Value: value,
			private: false,
			at: emu.now(),
		};
		notes.push(note);
	} else {
		note.Value = value;
		note.at = emu.now();
	}
	const extra = { Notes: [noteObject(note)] };
	raise(
		emu,
		created ? 'LocationNoteHeaderCreated' : 'LocationNoteHeaderUpdated',
		loc,
		locationEvent(emu, loc, user, extra),
	);
	raise(emu, 'LocationNotesChanged', loc, locationEvent(emu, loc, user, extra));
	return { note, created };
}

/** Removes a note header (LocationNoteHeaderDeleted, LocationNotesChanged). @param {import('./index').Emulator} emu @param {any} loc @param {string} header */
function deleteLocationNote(emu, loc, header) {
	const notes = emu.state.locationNotes[loc.Id] || [];
	const k = notes.findIndex(
		(/** @type {StoredNote} */ n) => n.Header.toLowerCase() === header.trim().toLowerCase(),
	);
	if (k < 0) return null;
	const [note] = notes.splice(k, 1);
	const extra = { Notes: [noteObject(note)] };
	raise(emu, 'LocationNoteHeaderDeleted', loc, locationEvent(emu, loc, undefined, extra));
	raise(emu, 'LocationNotesChanged', loc, locationEvent(emu, loc, undefined, extra));
	return note;
}

/** Location fields a test may change (updateLocation): the stored record's own ones. */
const LOCATION_FIELDS = ['Name', 'City', 'State', 'Latitude', 'Longitude'];

/** Changes a location's stored fields (LocationUpdated). @param {import('./index').Emulator} emu @param {any} loc @param {Record<string, any>} changes */
function updateLocation(emu, loc, changes) {
	for (const [k, v] of Object.entries(changes)) {
		if (!LOCATION_FIELDS.includes(k))
			throw new Error(`'${k}' cannot be changed (one of ${LOCATION_FIELDS.join(', ')})`);
		loc[k] = v;
	}
	raise(emu, 'LocationUpdated', loc, locationEvent(emu, loc));
	return loc;
}

/** Asset fields a test may give or change. */
const ASSET_FIELDS = [
	'Trade',
	'Type',
	'Manufacturer',
	'ModelNo',
	'SerialNo',
	'Tag',
	'Area',
	'Active',
	'UsesRefrigerant',
];

/**
 * Adds an asset at a location (AssetCreated). @param {import('./index').Emulator} emu
 * @param {{ LocationId: number } & Record<string, any>} partial
 */
function createAsset(emu, partial) {
	const loc = emu.state.locations[partial.LocationId];
	if (!loc) throw new Error(`location ${partial.LocationId} does not exist`);
	const now = emu.now();
	const id = partial.Id ?? emu.state._ids.asset++;
	if (emu.state.assets[id]) throw new Error(`asset ${id} already exists`);
	/** @type {StoredAsset} */
	const a = {
		Id: id,
		LocationId: loc.Id,
		SubscriberId: loc.SubscriberId,
		Trade: 'HVAC',
		Type: 'Unit',
		Manufacturer: 'Unknown',
		ModelNo: 'N/A',
		SerialNo: `SN${id}`,
		Tag: `A-${id}`,
		Area: null,
		installedAt: now,
		createdAt: now,
		modifiedAt: now,
		modifiedBy: null,
		Active: true,
		UsesRefrigerant: 0,
		WorkOrderIds: [],
	};
	for (const [k, v] of Object.entries(partial)) {
		if (k === 'LocationId' || k === 'Id') continue;
		if (!ASSET_FIELDS.includes(k)) throw new Error(`'${k}' is not an asset field here`);
		/** @type {any} */ (a)[k] = v;
	}
	emu.state.assets[id] = a;
	assetEvent(emu, a, 'AssetCreated');
	return a;
}

/** Changes an asset (AssetUpdated). @param {import('./index').Emulator} emu @param {StoredAsset} a @param {Record<string, any>} changes @param {any} [user] */
function updateAsset(emu, a, changes, user) {
	for (const [k, v] of Object.entries(changes)) {
		if (!ASSET_FIELDS.includes(k)) throw new Error(`'${k}' is not an asset field here`);
		/** @type {any} */ (a)[k] = v;
	}
	a.modifiedAt = emu.now();
	a.modifiedBy = user ? user.username : null;
	assetEvent(emu, a, 'AssetUpdated', user);
	return a;
}

module.exports = {
	seedPlaces,
	tradesOf,
	tradesAt,
	tradeNamed,
	hasTrade,
	providersOf,
	providerInfo,
	locationObject,
	locationWithZone,
	noteObject,
	assetObject,
	workOrderAsset,
	assetEvent,
	writeLocationNote,
	deleteLocationNote,
	updateLocation,
	createAsset,
	updateAsset,
	LOCAL_TRADE,
};
