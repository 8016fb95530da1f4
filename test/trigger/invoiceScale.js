'use strict';
/**
 * The polling trigger on a tenant of 20,000 invoices: one scenario, run by the jest test
 * (invoiceScale.test.js, which asserts on what it returns) and by the benchmark
 * (bench/cases/invoice-trigger.js: case 11 of `npm run bench`, and standalone). Not a test file itself; no jest globals.
 *
 * Through n8n-core's real poll path (harness.activate / trigger.poll()) against the emulator over
 * HTTP: 20,000 invoices posted over the last 300 days (most of them outside the list's default 90
 * days), dated to the second as deployed services date. After the activation (and, for Status
 * Changed, the polls until the statuses as of T0 are read), rounds of changes, each followed by a
 * poll: random invoices anywhere in the tenant, a burst of 120 changes in one second (pages share
 * one timestamp), changes made while the trigger pages its read, and (Status Changed) statuses
 * changed and back before a poll. Every change is made to an invoice not changed before, so
 * "each change once" is: the invoices emitted are the invoices changed, each once.
 */
const { mulberry32 } = require('../support/prng');

const LIST = '/api/v3/odata/invoices';
const TRIGGER_TYPE = 'n8n-nodes-work-order-service.workOrderServicePollingTrigger';
const TRIGGER_NAME = 'Work Order Service Trigger';
const STATUSES = ['Open', 'Approved', 'On Hold', 'Rejected', 'Voided', 'Paid'];

/**
 * 20,000 invoices (by default) of the main subscriber, posted over the last 300 days, the newest 3
 * days ago: none dated ahead of the service's clock (an invoice approved or paid is dated a day or
 * two after it was posted). Statuses in turn (Open, Approved, On Hold, Paid, Rejected).
 */
function seedInvoices(emu, count = 20_000) {
	const wos = emu.workOrderList().filter((w) => w.SubscriberId === 1001 && w.ProviderId === 3001);
	const newest = emu.now() - 3 * 86_400_000;
	return emu.createInvoices(
		Array.from({ length: count }, (_, i) => ({
			WorkOrderId: wos[i % wos.length].Id,
			PostedDate: new Date(newest - Math.floor((i * 297 * 86_400_000) / count)).toISOString(),
		})),
	);
}

/** A workflow with the polling trigger alone. */
function triggerWorkflow(credentialId, event, id) {
	return {
		id,
		name: `Invoice trigger at scale (${event})`,
		nodes: [
			{
				id: `${id}-trigger`,
				name: TRIGGER_NAME,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					authentication: 'password',
					event,
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					filters: {},
					options: {},
				},
				credentials: {
					workOrderServiceApi: { id: credentialId, name: 'Emulator password' },
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

function bytesOf(result) {
	return Buffer.byteLength(JSON.stringify(result.nodeStaticData ?? {}), 'utf8');
}

function lastSeq(emu) {
	return emu.requests.length ? emu.requests[emu.requests.length - 1].seq : 0;
}

/** The requests the emulator received after seq `from` (login included). */
function since(emu, from) {
	return emu.requests.filter((r) => r.seq > from);
}

/**
 * Runs the scenario for `event` ('invoiceUpdated' | 'invoiceStatusChanged' | 'invoiceCreated') on
 * `emu` (already holding the invoices) with the harness and a credential of the main subscriber.
 * @returns {Promise<object>} what happened: changes made, items emitted, requests, times, sizes
 */
async function runInvoiceScale({ harness, emu, credentialId, event, rounds = 5, seed = 33 }) {
	const random = mulberry32(seed);
	const tenant = emu
		.invoiceList()
		// the main subscriber's, posted within the list's reach (a fixture posted 400 days ago is not)
		.filter(
			(i) =>
				emu.invoices.meta.get(i.Id).subscriberId === 1001 &&
				emu.now() - emu.invoices.meta.get(i.Id).postedMs < 364 * 86_400_000,
		)
		.map((i) => i.Id);
	const used = new Set();
	const pick = () => {
		for (;;) {
			const id = tenant[Math.floor(random() * tenant.length)];
			if (!used.has(id)) {
				used.add(id);
				return id;
			}
		}
	};
	const wos = emu.workOrderList().filter((w) => w.SubscriberId === 1001 && w.ProviderId === 3001);
	const result = {
		event,
		invoices: tenant.length,
		activation: {},
		settling: { polls: 0, requests: 0 },
		polls: [],
		changed: [],
		backAndForth: [],
		emitted: [],
		previous: new Map(),
		expectedPrevious: new Map(),
	};

	// activation
	let from = lastSeq(emu);
	let started = Date.now();
	const trigger = await harness.activate(triggerWorkflow(credentialId, event, `inv-${event}`));
	const requests = since(emu, from);
	const first = requests[0];
	const last = requests[requests.length - 1];
	result.activation = {
		error: trigger.activation.error,
		ms: Date.now() - started,
		requests: requests.length,
		serviceMs: first ? Date.parse(last.time) + (last.durationMs ?? 0) - Date.parse(first.time) : 0,
		bytes: bytesOf(trigger.activation),
		items: trigger.activation.items.length,
		settled: trigger.activation.nodeStaticData?.state?.baseline === undefined,
	};
	if (trigger.activation.error) return result;
	const sizes = [result.activation.bytes];

	// Status Changed: the statuses as of T0 are read by the polls after the activation
	let state = trigger.activation.nodeStaticData.state;
	while (state.baseline && result.settling.polls < 50) {
		from = lastSeq(emu);
		const poll = await trigger.poll();
		if (poll.error) throw poll.error;
		result.settling.polls++;
		result.settling.requests += since(emu, from).length;
		result.emitted.push(...poll.items.map((i) => i.json.Id));
		sizes.push(bytesOf(poll));
		state = poll.nodeStaticData.state;
	}
	result.settling.statuses = state.statuses ? state.statuses.ids.split(',').length : 0;

	const change = (id, n) => {
		if (event === 'invoiceCreated')
			return emu.createInvoice({ WorkOrderId: wos[n % wos.length].Id }).Id;
		const inv = emu.invoice(id);
		const before = inv.Status;
		if (event === 'invoiceUpdated' && n % 3 === 1) emu.setInvoiceApprovalCode(id, `AC-${n}`);
		else if (event === 'invoiceUpdated' && n % 3 === 2) emu.starInvoice(id, !inv.IsStarred);
		else emu.setInvoiceStatus(id, STATUSES.filter((s) => s !== before)[n % 5]);
		if (!result.expectedPrevious.has(id)) result.expectedPrevious.set(id, before);
		return id;
	};

	let n = 0;
	for (let round = 0; round < rounds; round++) {
		emu.advanceTime(30);
		// random invoices, a second apart in tens
		for (let k = 0; k < 40; k++) {
			result.changed.push(change(pick(), n++));
			if (k % 10 === 9) emu.advanceTime(1);
		}
		// a burst: 120 changes in one second (the service dates to the second)
		emu.advanceTime(1);
		for (let k = 0; k < 120; k++) result.changed.push(change(pick(), n++));
		// Status Changed: statuses changed and back before the poll (no change to emit)
		if (event === 'invoiceStatusChanged') {
			for (let k = 0; k < 10; k++) {
				const id = pick();
				const before = emu.invoice(id).Status;
				emu.setInvoiceStatus(
					id,
					STATUSES.find((s) => s !== before),
				);
				emu.setInvoiceStatus(id, before);
				result.backAndForth.push(id);
			}
		}
		// changes made while the trigger pages its read (after its second page)
		let pages = 0;
		const during = [];
		emu.onResponse = (entry) => {
			if (entry.path !== LIST || entry.query.$skip === undefined) return;
			if (++pages === 2) for (let k = 0; k < 5; k++) during.push(change(pick(), n++));
		};
		from = lastSeq(emu);
		started = Date.now();
		const poll = await trigger.poll();
		emu.onResponse = null;
		if (poll.error) throw poll.error;
		result.changed.push(...during);
		const reqs = since(emu, from);
		result.polls.push({
			round,
			ms: Date.now() - started,
			requests: reqs.length,
			emitted: poll.items.length,
			bytes: bytesOf(poll),
		});
		sizes.push(bytesOf(poll));
		for (const item of poll.items) {
			result.emitted.push(item.json.Id);
			if (item.json.PreviousStatus !== undefined)
				result.previous.set(item.json.Id, item.json.PreviousStatus);
		}
	}
	// quiet polls: whatever is still in the lookback window is not emitted again
	for (const seconds of [5, 40, 120]) {
		emu.advanceTime(seconds);
		from = lastSeq(emu);
		const poll = await trigger.poll();
		if (poll.error) throw poll.error;
		result.polls.push({
			round: 'quiet',
			requests: since(emu, from).length,
			emitted: poll.items.length,
			bytes: bytesOf(poll),
		});
		sizes.push(bytesOf(poll));
		result.emitted.push(...poll.items.map((i) => i.json.Id));
	}
	result.maxBytes = Math.max(...sizes);
	result.maxPollRequests = Math.max(...result.polls.map((p) => p.requests));
	const counts = new Map();
	for (const id of result.emitted) counts.set(id, (counts.get(id) ?? 0) + 1);
	result.duplicates = [...counts].filter(([, c]) => c > 1).map(([id]) => id);
	result.missed = result.changed.filter((id) => !counts.has(id));
	result.unexpected = [...counts.keys()].filter((id) => !result.changed.includes(id));
	return result;
}

/** One line for a report. */
function summary(r) {
	return (
		`${r.event} on ${r.invoices} invoices: activation ${r.activation.requests} requests, ${r.activation.ms} ms` +
		(r.settling.polls
			? `; settled in ${r.settling.polls} polls (${r.settling.requests} requests)`
			: '') +
		`; ${r.changed.length} changes made, ${r.emitted.length} emitted (${r.duplicates.length} twice, ${r.missed.length} missed, ${r.unexpected.length} unexpected)` +
		`; polls after changes: ${r.polls
			.filter((p) => p.round !== 'quiet')
			.map((p) => `${p.requests} req/${p.ms} ms`)
			.join(', ')}; static data at most ${Math.round(r.maxBytes / 1024)} KB`
	);
}

module.exports = { runInvoiceScale, seedInvoices, summary, triggerWorkflow, LIST };
