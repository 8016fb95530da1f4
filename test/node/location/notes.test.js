'use strict';
/**
 * location.getNotes (GET /locations/{id}/notes, privateNotes) and location.addNote (POST
 * /locations/{id}/notes with UpdateLocationNoteHeaderApiModelRequest { Header, Value }): the
 * requests, the items, the write's output convention, the events the service raises, validation
 * before any request, the service's refusals.
 */
const {
	useEnvironment,
	items,
	expectGet,
	expectJsonRequest,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	support,
} = require('../helpers');

const env = useEnvironment();

const rl = (value, mode = 'list') => ({ __rl: true, mode, value });

describe('location.getNotes', () => {
	test('the note the service answers, one item; private ones with Include Private Notes', async () => {
		const r = await env.run({
			parameters: { resource: 'location', operation: 'getNotes', locationId: rl('503') },
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], { path: '/api/v3/locations/503/notes' });
		expect(r.output.map((o) => o.json)).toEqual([
			{
				Id: 5031,
				HeaderId: 1,
				Value: 'Deliveries and contractors use the rear door of Store #503 Houston.',
				Header: 'Access',
			},
		]);
		const p = await env.run({
			parameters: {
				resource: 'location',
				operation: 'getNotes',
				locationId: rl('503'),
				options: { privateNotes: true },
			},
		});
		expectGet(p.api[0], { path: '/api/v3/locations/503/notes', query: { privateNotes: 'true' } });
		expect(p.output.map((o) => o.json.Header)).toEqual(['Alarm Code']);
	});
});

describe('location.addNote', () => {
	test('POST { Header, Value }; the item: success, operation, locationId, header; the service raises LocationNoteHeaderCreated and LocationNotesChanged', async () => {
		const before = env.emulator.webhooks.events.length;
		const r = await env.run({
			parameters: {
				resource: 'location',
				operation: 'addNote',
				locationId: rl('504'),
				header: ' Freezer ',
				note: '={{ "Walk-in freezer " + $json.tag + " serviced" }}',
			},
			items: items({ tag: 'WIF-504-1' }),
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/locations/504/notes',
			body: { Header: 'Freezer', Value: 'Walk-in freezer WIF-504-1 serviced' },
		});
		expect(r.output).toEqual([
			{
				json: { success: true, operation: 'addNote', locationId: 504, header: 'Freezer' },
				pairedItem: { item: 0 },
			},
		]);
		expect(env.emulator.webhooks.events.slice(before).map((e) => e.eventType)).toEqual([
			'LocationNoteHeaderCreated',
			'LocationNotesChanged',
		]);
		const read = await env.run({
			parameters: { resource: 'location', operation: 'getNotes', locationId: rl('504') },
		});
		expect(read.output[0].json).toMatchObject({
			Header: 'Freezer',
			Value: expect.stringMatching(/WIF-504-1/),
		});
	});

	test('an empty Header or Note is refused before any request; with Continue On Fail the other items run', async () => {
		const base = { resource: 'location', operation: 'addNote', locationId: rl('505') };
		const r = await env.run({ parameters: { ...base, header: '  ', note: 'x' } });
		expectValidationError(r, { parameter: 'header', item: 0, problem: /must not be empty/ });
		expect(r.api).toHaveLength(0);
		const c = await env.run({
			parameters: { ...base, header: 'Hours', note: '={{ $json.v }}' },
			items: items({ v: '' }, { v: 'Open 6am to 11pm' }),
			continueOnFail: true,
		});
		expect(c.result.status).toBe('success');
		expect(c.api).toHaveLength(1);
		expect(c.output[0].json.error).toContain('(parameter "note") in item 0');
		expect(c.output[1].json).toEqual({
			success: true,
			operation: 'addNote',
			locationId: 505,
			header: 'Hours',
		});
		expect(pairedIndexes(c.output)).toEqual([0, 1]);
	});

	test('a provider user: the service refuses (403) and the error says so', async () => {
		env.harness.credentials.set('cred-contractor', {
			name: 'Emulator contractor',
			type: 'workOrderServiceContractorApi',
			data: support.contractorCredential(env.emulator),
		});
		const r = await env.run({
			parameters: {
				resource: 'location',
				operation: 'addNote',
				locationId: rl('501'),
				header: 'Access',
				note: 'x',
			},
			authentication: 'contractor',
			credentialId: 'cred-contractor',
		});
		expectApiError(r, { status: 403, serviceMessage: 'Only the subscriber may change the notes' });
	});
});
