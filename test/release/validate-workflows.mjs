// Validates GitHub Actions workflow files with GitHub's own parser (@actions/workflow-parser, the
// one behind the GitHub Actions language service): YAML syntax, the workflow schema, expressions,
// cron syntax. ESM only, hence a separate process for jest:
//   node test/release/validate-workflows.mjs .github/workflows/ci.yml [...]
// prints JSON [{ file, errors: [string], jobs: [{ id, if, steps: [{ name, run, uses }] }], events }].
import fs from 'node:fs';
import { register } from 'node:module';

// The parser imports its schema (a .json file) without `with { type: 'json' }`, which bundlers accept
// and Node refuses: load .json modules as JSON here.
register(
	'data:text/javascript,' +
		encodeURIComponent(`
			import { readFile } from 'node:fs/promises';
			export async function load(url, context, next) {
				if (url.startsWith('file:') && url.endsWith('.json')) {
					return { format: 'json', source: await readFile(new URL(url), 'utf8'), shortCircuit: true };
				}
				return next(url, context);
			}`),
);
const { parseWorkflow, convertWorkflowTemplate, NoOperationTraceWriter } = await import(
	'@actions/workflow-parser'
);

const out = [];
for (const file of process.argv.slice(2)) {
	const content = fs.readFileSync(file, 'utf8');
	const parsed = parseWorkflow({ name: file, content }, new NoOperationTraceWriter());
	const errors = parsed.context.errors.getErrors().map((e) => e.message);
	let template = null;
	if (parsed.value) {
		template = await convertWorkflowTemplate(parsed.context, parsed.value);
		errors.push(...(template.errors || []).map((e) => e.Message || e.message || String(e)));
	}
	const jobs = (template?.jobs || []).map((job) => ({
		id: job.id?.value ?? String(job.id),
		if: job.if?.expr ?? job.if?.toString?.() ?? null,
		steps: (job.steps || []).map((s) => ({
			name: s.name?.value ?? s.name?.toString?.() ?? null,
			run: s.run?.value ?? s.run?.toString?.() ?? null,
			uses: s.uses?.value ?? null,
		})),
	}));
	out.push({
		file,
		errors: [...new Set(errors)],
		jobs,
		events: template?.events ? Object.keys(template.events) : [],
	});
}
process.stdout.write(JSON.stringify(out, null, 2));
