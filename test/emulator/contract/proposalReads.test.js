'use strict';

/**
 * The emulator's proposal reads (api-proposals.js) and attachment files (api-files.js) against the
 * service reference (sections 1 and 5): `GET /odata/proposals` answers the reference's `Proposal`
 * with every property, nested as there, dates as local text and offset twins; OData over it;
 * visibility; void proposals; `GET /odata/proposals({id})/attachments` answers `Attachment`s whose
 * `Uri` serves the file: on the API origin with the token, on the storage origin with an expiring
 * pre-signed link and never with an `Authorization` header.
 */

const { useEmulator, login } = require('./helpers');
const reference = require('./reference-proposal');
const files = require('../api-files');

/** @type {any} */
let emu;
useEmulator((e) => {
	emu = e;
});

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)?$/;

/** Problems of a value against a reference definition (names and types), as paths. */
function problems(value, defName, path = defName) {
	const def = reference[defName];
	const out = [];
	for (const [key, v] of Object.entries(value)) {
		const spec = def.properties[key];
		if (!spec) out.push(`${path}.${key}: not in the reference`);
		else out.push(...typeProblems(v, spec, `${path}.${key}`));
	}
	return out;
}

function typeProblems(v, spec, path) {
	if (v === null) return [];
	if (spec.$ref) {
		const name = spec.$ref.split('/').pop();
		if (typeof v !== 'object' || Array.isArray(v)) return [`${path}: not an object`];
		return reference[name] ? problems(v, name, path) : []; // WorkOrder: checked by the work order contract tests
	}
	if (spec.type === 'array')
		return Array.isArray(v)
			? v.flatMap((x, i) => typeProblems(x, spec.items, `${path}[${i}]`))
			: [`${path}: not an array`];
	if (spec.type === 'integer') return Number.isInteger(v) ? [] : [`${path}: not an integer`];
	if (spec.type === 'number') return typeof v === 'number' ? [] : [`${path}: not a number`];
	if (spec.type === 'boolean') return typeof v === 'boolean' ? [] : [`${path}: not a boolean`];
	if (spec.type === 'string' && spec.format === 'date-time')
		return typeof v === 'string' && DATE_TIME.test(v) ? [] : [`${path}: not a date-time`];
	if (spec.type === 'string') return typeof v === 'string' ? [] : [`${path}: not a string`];
	return [];
}

async function get(path, who = 'subscriber', deliberate = undefined) {
	const { access_token: token } = await login(who);
	/** @type {Record<string, string>} */
	const headers = { authorization: `Bearer ${token}` };
	if (deliberate) headers['x-contract-deliberate'] = deliberate;
	const r = await fetch(`${emu.baseUrl}/v3${path}`, { headers, redirect: 'manual' });
	const text = await r.text();
	let body = null;
	try {
		body = JSON.parse(text);
	} catch {
		body = null;
	}
	return { status: r.status, body, text, headers: r.headers };
}

const list = (query = '', deliberate = undefined) =>
	get(`/odata/proposals${query}`, 'subscriber', deliberate);
const q = (filter) => `?$filter=${encodeURIComponent(filter)}`;
const ids = (r) => r.body.value.map((p) => p.Id);

describe("GET /odata/proposals: the reference's Proposal", () => {
	test('every property of the reference, nested as there, with its types; WorkOrder is the work order as GET /workorders/{id} answers it', async () => {
		const r = await list();
		expect(r.status).toBe(200);
		expect(r.body['@odata.context']).toBe(`${emu.baseUrl}/v3/odata/$metadata#Proposals`);
		expect(r.body.value.length).toBeGreaterThan(5);
		for (const p of r.body.value) {
			expect(Object.keys(p).sort()).toEqual(Object.keys(reference.Proposal.properties).sort());
			expect(problems(p, 'Proposal')).toEqual([]);
			expect(Object.keys(p.Status).sort()).toEqual([
				'Extended',
				'ModifiedBy',
				'ModifiedDate',
				'ModifiedDate_dto',
				'Primary',
			]);
		}
		const p = r.body.value.find((x) => x.Id === 61001);
		const wo = await get('/workorders/90000006');
		expect(p.WorkOrder).toEqual(wo.body);
		expect(p).toMatchObject({
			Number: 'P-61001',
			Amount: 1200,
			Description: 'Replace walk-in cooler compressor',
			Status: { Primary: 'Open' },
		});
		expect(p.Provider).toMatchObject({ Id: 3001, Name: 'Acme Facility Services' });
		expect(p.Location).toMatchObject({ Id: 504, StoreId: 'S504' });
		expect(p.Attachments.map((a) => a.Name)).toEqual([
			'P-61001-quote.pdf',
			'compressor-nameplate.jpg',
		]);
	});

	test("dates: plain local text and its twin with the offset, one instant, in the service's zone", async () => {
		emu.setServiceTimeZone('America/New_York');
		const [p] = (await list(q('Id eq 61001'))).body.value;
		for (const [plain, twin] of [
			['CreatedDate', 'CreatedDate_dto'],
			['UpdatedDate', 'UpdatedDateDto'],
			['ScheduledDate', 'ScheduledDateDto'],
		]) {
			expect(p[plain]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/);
			expect(p[twin]).toMatch(/-0[45]:00$/);
			expect(p[twin].startsWith(p[plain])).toBe(true);
		}
		expect(p.Status.ModifiedDate_dto.startsWith(p.Status.ModifiedDate)).toBe(true);
	});

	test("OData: $filter on nested paths and amounts; dates compare as instants whatever the literal's offset", async () => {
		expect(ids(await list(q("Status/Primary eq 'open' and Amount lt 1000")))).toEqual([
			61003, 61004, 61008,
		]);
		expect(ids(await list(q('Location/Id eq 504 or WorkOrder/Id eq 90000005')))).toEqual([
			61001, 61002, 61006,
		]);
		expect(ids(await list(q('Provider/Id eq 3002')))).toEqual([61008]);
		const [p] = (await list(q('Id eq 61001'))).body.value;
		const created = Date.parse(p.CreatedDate_dto);
		const berlin = (ms) => new Date(ms + 3_600_000).toISOString().replace('Z', '+01:00');
		expect(ids(await list(q(`Id eq 61001 and CreatedDate_dto ge ${berlin(created)}`)))).toEqual([
			61001,
		]);
		expect(
			ids(await list(q(`Id eq 61001 and CreatedDate_dto ge ${berlin(created + 1000)}`))),
		).toEqual([]);
		expect(
			ids(
				await list(
					q(`Id eq 61001 and UpdatedDateDto lt ${new Date(created + 1000).toISOString()}`),
				),
			),
		).toEqual([61001]);
	});

	test('OData: $orderby, $select, $top/$skip (50 a page at most), $count over the filtered list', async () => {
		const r = await list(
			`?$orderby=${encodeURIComponent('Amount desc')}&$select=Id,Amount&$top=3&$skip=1&$count=true`,
		);
		expect(r.status).toBe(200);
		expect(r.body['@odata.count']).toBe(8);
		expect(r.body.value).toEqual([
			{ Id: 61001, Amount: 1200 },
			{ Id: 61007, Amount: 980 },
			{ Id: 61002, Amount: 800 },
		]);
	});

	test('an unknown property or a broken $filter: 400 with the OData error', async () => {
		for (const [query, word] of [
			[q('StoreId eq 5'), 'StoreId'],
			['?$orderby=Price', 'Price'],
			['?$select=Id,Foo', 'Foo'],
			[q('Amount eq'), ''],
		]) {
			const r = await list(query, 'an unknown property or a broken $filter');
			expect(r.status).toBe(400);
			expect(r.body.ErrorMessage ?? r.body.error.message).toContain(word);
		}
	});

	test("visibility: a contractor sees its provider's proposals, a subscriber user its subscriber's", async () => {
		const { access_token: token } = await login('contractor');
		const r = await fetch(`${emu.baseUrl}/v3/odata/proposals`, {
			headers: { authorization: `Bearer ${token}` },
		});
		const body = await r.json();
		expect(body.value.map((p) => p.Id)).toEqual([61001, 61002, 61003, 61004, 61005, 61006, 61007]);
		expect(ids(await list())).not.toContain(62001);
	});

	test('void: not listed; a $filter naming it by Id is answered 400', async () => {
		emu.setProposalStatus(61004, 'Voided');
		expect(ids(await list())).not.toContain(61004);
		const r = await list(q('Id eq 61004'));
		expect(r.status).toBe(400);
		expect(r.body).toEqual({
			ErrorCodes: [4009],
			ErrorCode: 4009,
			ErrorMessage: 'Proposal 61004 is void',
			Data: null,
		});
	});

	test('without a token: 401', async () => {
		const r = await fetch(`${emu.baseUrl}/v3/odata/proposals`);
		expect(r.status).toBe(401);
	});
});

describe('GET /odata/proposals({id})/attachments and the files behind their Uri', () => {
	test("Attachment records (reference shape), OData over them; another subscriber's or an unknown proposal: 404", async () => {
		const r = await get('/odata/proposals(61001)/attachments');
		expect(r.status).toBe(200);
		for (const a of r.body.value) expect(problems(a, 'Attachment')).toEqual([]);
		expect(r.body.value.map((a) => [a.Id, a.Name, a.NoteId, a.Uri])).toEqual([
			[660001, 'P-61001-quote.pdf', null, `${emu.baseUrl}/v3/files/660001`],
			[660002, 'compressor-nameplate.jpg', null, `${emu.baseUrl}/v3/files/660002`],
		]);
		expect(
			(await get(`/odata/proposals(61001)/attachments${q('Id eq 660002')}`)).body.value.map(
				(a) => a.Id,
			),
		).toEqual([660002]);
		expect((await get('/odata/proposals(62001)/attachments')).status).toBe(404);
		expect((await get('/odata/proposals(69999)/attachments')).status).toBe(404);
	});

	test("an API-origin Uri serves the bytes with type, length and name to a caller with a token; 401 without; 404 for others' files", async () => {
		const { access_token: token } = await login();
		const uri = `${emu.baseUrl}/v3/files/660001`;
		const ok = await fetch(uri, { headers: { authorization: `Bearer ${token}` } });
		const bytes = Buffer.from(await ok.arrayBuffer());
		expect(ok.status).toBe(200);
		expect(ok.headers.get('content-type')).toBe('application/pdf');
		expect(ok.headers.get('content-length')).toBe(String(bytes.length));
		expect(ok.headers.get('content-disposition')).toBe(
			`attachment; filename="P-61001-quote.pdf"; filename*=UTF-8''P-61001-quote.pdf`,
		);
		expect(bytes.equals(files.proposalFiles(emu, 61001)[0].data)).toBe(true);
		expect((await fetch(uri)).status).toBe(401);
		const other = await files.addProposalFile(emu, {
			proposalId: 62001,
			name: 'east.txt',
			mimeType: 'text/plain',
			data: Buffer.from('east'),
		});
		expect((await get(`/files/${other.Id}`)).status).toBe(404);
		expect((await get('/files/999999')).body.ErrorCode).toBe(5006);
	});

	test('a storage Uri: another origin, pre-signed, expiring; Authorization refused; bad signature and unknown key refused', async () => {
		const [a] = (await get('/odata/proposals(61005)/attachments')).body.value;
		const storage = await files.storageOf(emu);
		const url = new URL(a.Uri);
		expect(url.origin).toBe(storage.origin);
		expect(url.origin).not.toBe(new URL(emu.baseUrl).origin);
		const ok = await fetch(a.Uri);
		expect(ok.status).toBe(200);
		expect(
			Buffer.from(await ok.arrayBuffer()).equals(files.proposalFiles(emu, 61005)[0].data),
		).toBe(true);
		const withAuth = await fetch(a.Uri, { headers: { authorization: 'Bearer x' } });
		expect([withAuth.status, await withAuth.text()]).toEqual([
			400,
			expect.stringContaining('Only one auth mechanism allowed'),
		]);
		const forged = new URL(a.Uri);
		forged.searchParams.set('expires', String(Number(forged.searchParams.get('expires')) + 3600));
		expect((await fetch(forged)).status).toBe(403);
		expect((await fetch(`${storage.origin}/blobs/00ff`)).status).toBe(404);
		emu.advanceTime(901);
		const expired = await fetch(a.Uri);
		expect([expired.status, await expired.text()]).toEqual([
			403,
			expect.stringContaining('<Message>Request has expired</Message>'),
		]);
		expect(storage.requests.map((r) => r.status)).toEqual([200, 400, 403, 404, 403]);
	});
});
