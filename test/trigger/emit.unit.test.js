'use strict';
/**
 * What a poll emits from the versions it read (trigger/emit.ts), without HTTP: versions handled
 * before are skipped (Created: by Id; others: by version, and never one older than a version
 * handled), one item per work order (its newest version), and with Status Changed only a status
 * that differs from the one remembered, or an unknown one as the option says.
 */
const path = require('path');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger');
const emit = require(path.join(DIST, 'emit'));
const reader = require(path.join(DIST, 'reader'));
const state = require(path.join(DIST, 'state'));

const T0 = Date.parse('2026-05-01T10:00:00Z');
const at = (seconds) => new Date(T0 + seconds * 1000).toISOString().replace('Z', '+00:00');

/** A version of work order `id` dated `seconds` after T0 with status `primary`. */
function version(id, seconds, primary = 'OPEN', extra = {}) {
	const record = {
		Id: id,
		Status: { Primary: primary, Extended: null },
		UpdatedDate_DTO: at(seconds),
		CreatedDate: at(-3600),
		...extra,
	};
	return reader.toVersion(record, 'UpdatedDate');
}

describe('handled before', () => {
	test('the seen keys by key, by Id, and the newest instant handled per work order', () => {
		const seen = [
			version(1, 5).key,
			state.keyWithoutDigest(version(1, 9).key),
			version(2, 3).key,
			'not a key',
		];
		const handled = emit.handledBefore(seen);
		expect([...handled.ids].sort()).toEqual(['1', '2']);
		expect(handled.newestMs.get('1')).toBe(T0 + 9000);
		expect(handled.newestMs.get('2')).toBe(T0 + 3000);
		expect(handled.keys.size).toBe(4);
	});

	test('a version: new, seen (with or without its digest), or older than one handled', () => {
		const handled = emit.handledBefore([
			version(1, 5).key,
			state.keyWithoutDigest(version(2, 5).key),
		]);
		expect(emit.versionStatus(version(1, 5), handled, false)).toBe('seen');
		expect(emit.versionStatus(version(1, 5, 'COMPLETED'), handled, false)).toBe('new'); // same second, other content
		expect(emit.versionStatus(version(2, 5, 'COMPLETED'), handled, false)).toBe('seen'); // a version 1 key matches any content
		expect(emit.versionStatus(version(1, 4), handled, false)).toBe('older');
		expect(emit.versionStatus(version(1, 6), handled, false)).toBe('new');
		expect(emit.versionStatus(version(3, 1), handled, false)).toBe('new');
	});

	test('Created: any version of a work order handled before is seen', () => {
		const handled = emit.handledBefore([state.keyWithoutDigest(version(1, 5).key)]);
		expect(emit.versionStatus(version(1, 50, 'COMPLETED'), handled, true)).toBe('seen');
		expect(emit.versionStatus(version(1, 1), handled, true)).toBe('seen');
		expect(emit.versionStatus(version(2, 1), handled, true)).toBe('new');
	});
});

describe('selectNew', () => {
	test("keys of what is handled now, and per work order its newest new version in the service's order", () => {
		const versions = [
			version(2, 1),
			version(1, 2),
			version(2, 3, 'COMPLETED'),
			version(3, 4),
			version(1, 0),
		];
		const selection = emit.selectNew(versions, [version(3, 4).key], false);
		expect(selection.handled).toEqual([
			versions[0].key,
			versions[1].key,
			versions[2].key,
			versions[4].key,
		]);
		expect(selection.newest.map((v) => [v.id, v.ms - T0])).toEqual([
			['1', 2000],
			['2', 3000],
		]);
	});

	test('Created: keys without the digest, one per work order', () => {
		const versions = [version(7, 1), version(7, 2, 'COMPLETED')];
		const selection = emit.selectNew(versions, [], true);
		expect(selection.handled).toEqual([
			state.keyWithoutDigest(versions[0].key),
			state.keyWithoutDigest(versions[1].key),
		]);
		expect(selection.newest.map((v) => v.ms - T0)).toEqual([2000]);
	});

	test('a version seen before teaches the status memory the status last seen, when it has none', () => {
		const memory = new state.StatusMemory();
		memory.set('2', 'KNOWN\u001f');
		const seen = [version(1, 5, 'ON HOLD').key, version(2, 5, 'ON HOLD').key];
		emit.selectNew([version(1, 5, 'ON HOLD'), version(2, 5, 'ON HOLD')], seen, false, memory);
		expect(memory.get('1')).toBe('ON HOLD\u001f');
		expect(memory.get('2')).toBe('KNOWN\u001f');
	});
});

describe('items to emit', () => {
	const rule = { statuses: [], unknownStatus: 'emit', originMs: T0 };

	test('without a status memory (Created, Updated): every newest version', () => {
		const newest = [version(1, 1), version(2, 2)];
		expect(emit.itemsToEmit(newest, undefined, rule)).toEqual({
			items: newest.map((v) => v.record),
			unknown: 0,
		});
	});

	test('Status Changed: a status that differs from the remembered one; the memory then holds the new one', () => {
		const memory = new state.StatusMemory();
		memory.set('1', 'OPEN\u001f');
		memory.set('2', 'OPEN\u001f');
		const newest = [version(1, 1, 'OPEN'), version(2, 2, 'COMPLETED')];
		const out = emit.itemsToEmit(newest, memory, rule);
		expect(out.items.map((r) => r.Id)).toEqual([2]);
		// the item is the record with the status the trigger saw before
		expect(out.items[0]).toEqual({
			...newest[1].record,
			PreviousStatus: { Primary: 'OPEN', Extended: null },
		});
		expect(out.unknown).toBe(0);
		expect(memory.get('2')).toBe('COMPLETED\u001f');
	});

	test('the Primary Statuses filter applies to the new status', () => {
		const memory = new state.StatusMemory();
		memory.set('1', 'OPEN\u001f');
		memory.set('2', 'OPEN\u001f');
		const out = emit.itemsToEmit([version(1, 1, 'COMPLETED'), version(2, 2, 'ON HOLD')], memory, {
			...rule,
			statuses: ['completed'],
		});
		expect(out.items.map((r) => r.Id)).toEqual([1]);
		expect(memory.get('2')).toBe('ON HOLD\u001f');
	});

	test('an unknown earlier status: a work order that existed at T0 (or was forgotten) as the option says; a new one never', () => {
		const existing = version(1, 1, 'COMPLETED');
		const createdAfter = version(2, 2, 'OPEN', { CreatedDate: at(1) });
		const noDates = reader.toVersion(
			{ Id: 3, Status: 'OPEN', UpdatedDate_DTO: at(3) },
			'UpdatedDate',
		);
		expect(emit.statusDecision(existing, undefined, false, rule)).toBe('unknown');
		expect(
			emit.statusDecision(existing, undefined, false, { ...rule, unknownStatus: 'ignore' }),
		).toBe('skip');
		expect(emit.statusDecision(createdAfter, undefined, false, rule)).toBe('skip');
		expect(emit.statusDecision(createdAfter, undefined, true, rule)).toBe('unknown');
		expect(emit.statusDecision(noDates, undefined, false, rule)).toBe('unknown');
		const memory = new state.StatusMemory();
		const out = emit.itemsToEmit([existing, createdAfter], memory, rule);
		expect(out).toEqual({ items: [{ ...existing.record, PreviousStatus: null }], unknown: 1 });
		expect(memory.size).toBe(2);
	});

	test('existed before T0: by CreatedDate, else CallDate; unknown counts as yes', () => {
		expect(emit.existedBefore({ CreatedDate: at(-1) }, T0)).toBe(true);
		expect(emit.existedBefore({ CreatedDate: at(0) }, T0)).toBe(false);
		expect(emit.existedBefore({ CallDate_DTO: at(5) }, T0)).toBe(false);
		expect(emit.existedBefore({}, T0)).toBe(true);
	});
});
