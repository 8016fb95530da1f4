'use strict';

/**
 * Errors, paths and malformed requests: unknown paths and methods, percent-decoded path
 * segments, and garbage that must never crash the server.
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const { useEmulator, token, api, raw, expectError } = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('errors, paths and malformed requests', () => {
	test('unknown paths are 404 with the error body; a known path with the wrong method is 405 with Allow', async () => {
		const t = await token();
		const why = 'a path or method the service does not have';
		expectError(await api('GET', '/nothing/here', { token: t, deliberate: why }), 404, 5000);
		const v2 = await fetch(`${emu.baseUrl}/v2/workorders`, {
			headers: { 'x-contract-deliberate': why },
		});
		expect(v2.status).toBe(404);
		const other = await fetch(`${emu.origin}/elsewhere`);
		expect(other.status).toBe(404);
		const m = await api('DELETE', `/workorders/${fx.workOrders.checklist}`, {
			token: t,
			deliberate: why,
		});
		expectError(m, 405, 5001);
		expect(m.headers.get('allow')).toBe('GET');
	});

	test('path segments are percent-decoded one by one; an encoded slash or .. never reaches another resource', async () => {
		const t = await token();
		const auth = {
			authorization: `Bearer ${t}`,
			'x-contract-deliberate': 'paths that must not reach another resource',
		};
		const ok = await raw('GET', `/api/v3/odata/workorders%28${fx.workOrders.checklist}%29`, {
			headers: auth,
		});
		expect(ok.status).toBe(200);
		for (const p of [
			`/api/v3/workorders/${fx.workOrders.checklist}%2Fnotes`,
			`/api/v3/workorders/${fx.workOrders.checklist}/../${fx.workOrders.noChecklist}`,
			`/api/v3/workorders/%2e%2e/workorders`,
			'/api/v3/workorders/%E0%A4%A',
			`/api/v3/workorders/${fx.workOrders.checklist}%5Cnotes`,
		]) {
			const r = await raw('GET', p, { headers: auth });
			expect([p, r.status]).toEqual([p, 400]);
			expect(JSON.parse(r.text).ErrorCode).toBe(2004);
		}
	});

	test('garbage never crashes the server: bad JSON, huge ids, wrong content types, truncated multipart', async () => {
		const t = await token();
		const auth = { authorization: `Bearer ${t}`, 'x-contract-deliberate': 'garbage on purpose' };
		const cases = [
			raw('POST', `/api/v3/workorders/${fx.workOrders.checklist}/notes`, {
				headers: { ...auth, 'content-type': 'application/json' },
				body: '\u0000\u0001{{',
			}),
			raw('POST', `/api/v3/workorders/${fx.workOrders.checklist}/notes`, {
				headers: { ...auth, 'content-type': 'application/json' },
				body: '{"NoteData":"x"} trailing',
			}),
			raw('PUT', `/api/v3/proposals/${fx.proposals.open}/approve`, {
				headers: { ...auth, 'content-type': 'application/json' },
				body: 'null',
			}),
			raw('GET', `/api/v3/odata/workorders(${'9'.repeat(40)})`, { headers: auth }),
			raw('POST', '/api/v3/checklists/CheckListResponse', {
				headers: { ...auth, 'content-type': 'multipart/form-data; boundary=zz' },
				body: '--zz\r\nContent-Disposition: form-data; name="CheckListResponseRequest"\r\n\r\n{"a":1}\r\n--zz',
			}),
			raw('POST', '/auth/oauth/token', {
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: '%%%&&&===',
			}),
		];
		const results = await Promise.all(cases);
		for (const r of results) {
			expect(r.status).toBeGreaterThanOrEqual(400);
			expect(r.status).toBeLessThan(500);
		}
		expect((await api('GET', '/workorders?pageSize=1', { token: t })).status).toBe(200);
	});
});

// =================================================================================================
