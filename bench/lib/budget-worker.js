'use strict';
/**
 * Child process for case 9 (shared request budget): one "n8n worker", i.e. one process with the
 * n8n-core harness and this package (or the package in `packageDir`), running several executions
 * at the same time against the emulator that runs in the parent (bench/run.js):
 *
 *   node bench/lib/budget-worker.js '<job JSON>'      (forked with IPC by bench/cases/shared-budget.js)
 *
 * Job: { kind: 'budget', packageDir?, credential, workOrderId, executions: [{ tag, items, delayMs }] }.
 * Each execution updates the NTE of work order `workOrderId` once per item (an update the service
 * allows again and again), Actor "<tag>-<n>" (Continue On Fail off, default Request Options). Sends { ok, executions: [{ tag, status, ms, startAt, endAt, error }] }
 * (times in epoch ms, so that the parent measures executions, not process start-up).
 */
const { createHarness } = require('../../test/harness');
const S = require('../../test/support');

async function main() {
	const job = JSON.parse(process.argv[2]);
	const harness = await createHarness(job.packageDir ? { packageDir: job.packageDir } : {});
	harness.credentials.set('cred-1', {
		name: 'Bench',
		type: 'workOrderServiceApi',
		data: job.credential,
	});
	const started = Date.now();
	const executions = await Promise.all(
		job.executions.map(async ({ tag, items, delayMs = 0 }) => {
			await new Promise((resolve) => setTimeout(resolve, delayMs));
			const t0 = Date.now();
			const r = await S.runNode(harness, {
				parameters: {
					resource: 'workOrder',
					operation: 'updateNte',
					workOrderId: job.workOrderId,
					nte: '={{ $json.nte }}',
					additionalFields: { actor: '={{ $json.tag }}' },
				},
				items: S.items(
					Array.from({ length: items }, (_, k) => ({ tag: `${tag}-${k}`, nte: 100 + k })),
				),
				timeoutMs: 900_000,
			});
			return {
				tag,
				status: r.result.status,
				ms: Date.now() - t0,
				startAt: t0,
				endAt: Date.now(),
				startedAfterMs: t0 - started,
				error: r.error ? String(r.error.message).slice(0, 300) : undefined,
			};
		}),
	);
	harness.close();
	process.send({ ok: true, executions });
}

main().catch((e) => {
	process.send?.({ ok: false, error: String(e.stack || e) });
	process.exitCode = 1;
});
