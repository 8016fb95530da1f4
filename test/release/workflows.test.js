'use strict';
/**
 * The GitHub Actions workflows cannot run here; this checks what can be checked without GitHub:
 *  - both files against GitHub's own workflow parser and schema (@actions/workflow-parser, run by
 *    validate-workflows.mjs): YAML, keys, values, expressions, cron;
 *  - ci.yml: lint/build/tests/demo/scan on push and pull request; the real-n8n, queue-mode and
 *    browser suites and `npm run dev -- --check` only on schedule / manual dispatch, in a Debian
 *    container (apt-get, as .ci/run runs them);
 *  - publish.yml: only on a version tag, `id-token: write`, tests before `npm publish --provenance
 *    --access public`, and a tag that the prepublish guard accepts;
 *  - every npm / npx command in a `run:` step (and in .ci/run) names a script of package.json, a
 *    command of npm, or a binary of a devDependency.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { refusalReasons } = require('../../scripts/prepublish-guard');

const ROOT = path.resolve(__dirname, '..', '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** npm's own commands a workflow may call (`npm <command>`), as opposed to package scripts. */
const NPM_COMMANDS = new Set([
	'ci',
	'install',
	'i',
	'publish',
	'pack',
	'config',
	'view',
	'ls',
	'version',
	'whoami',
	'exec',
	'rebuild',
	'cache',
]);
/** `npm <name>` shortcuts that run the package script of that name. */
const SCRIPT_SHORTCUTS = new Set(['test', 'start', 'stop', 'restart']);

/** The binaries the devDependencies provide (what `npx <bin>` runs from node_modules/.bin). */
function devDependencyBins() {
	const bins = new Map();
	for (const dep of Object.keys(pkg.devDependencies)) {
		const file = path.join(ROOT, 'node_modules', ...dep.split('/'), 'package.json');
		const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
		const bin =
			typeof manifest.bin === 'string'
				? { [manifest.name.split('/').pop()]: manifest.bin }
				: manifest.bin || {};
		for (const name of Object.keys(bin)) bins.set(name, dep);
	}
	return bins;
}

/** The simple commands of a shell script, as word lists (env assignments and keywords dropped). */
function shellCommands(script) {
	const commands = [];
	for (const raw of script.split('\n')) {
		const line = raw.replace(/(^|\s)#.*$/, '');
		for (const segment of line.split(/&&|\|\||[;|{}()]/)) {
			const words = segment.trim().split(/\s+/).filter(Boolean);
			while (
				words.length &&
				(/^(if|then|else|elif|fi|do|done|while|until|time|exec|!)$/.test(words[0]) ||
					/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]))
			)
				words.shift();
			if (words.length) commands.push(words);
		}
	}
	return commands;
}

/**
 * What is wrong with the npm/npx commands of a script: `npm run X` / `npm test` naming a script that
 * package.json lacks, an npm command this package does not expect, `npx X` that no devDependency provides.
 */
function npmProblems(script, scripts = pkg.scripts, bins = devDependencyBins()) {
	const problems = [];
	for (const words of shellCommands(script)) {
		const [cmd, sub, arg] = words;
		const text = words.join(' ');
		if (cmd === 'npm') {
			if (sub === undefined || sub.startsWith('-')) continue; // npm --version
			if (sub === 'run' || sub === 'run-script') {
				if (!arg || !scripts[arg]) problems.push(`"${text}": package.json has no script "${arg}"`);
			} else if (SCRIPT_SHORTCUTS.has(sub)) {
				if (!scripts[sub]) problems.push(`"${text}": package.json has no script "${sub}"`);
			} else if (!NPM_COMMANDS.has(sub)) {
				problems.push(
					`"${text}": "${sub}" is neither an npm command used here nor a script shortcut`,
				);
			}
		} else if (cmd === 'npx') {
			const bin = words.slice(1).find((w) => !w.startsWith('-'));
			if (!bins.has(bin))
				problems.push(
					`"${text}": no devDependency provides the binary "${bin}" (npx would download it)`,
				);
		}
	}
	return problems;
}

/** GitHub's parser on the given files (see validate-workflows.mjs). */
function validate(files) {
	const res = spawnSync(
		process.execPath,
		[path.join(__dirname, 'validate-workflows.mjs'), ...files],
		{ cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
	);
	if (res.status !== 0)
		throw new Error(`validate-workflows.mjs failed (${res.status}):\n${res.stderr}`);
	return JSON.parse(res.stdout);
}

const readYaml = (file) => {
	const doc = YAML.parseDocument(fs.readFileSync(file, 'utf8'));
	if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('\n')}`);
	return doc.toJS();
};
const runSteps = (wf) =>
	Object.values(wf.jobs).flatMap((job) => (job.steps || []).filter((s) => s.run).map((s) => s.run));
const runsScript = (job, script) =>
	(job.steps || []).some(
		(s) =>
			s.run &&
			shellCommands(s.run).some(
				(w) =>
					(w[0] === 'npm' &&
						((w[1] === 'run' && w[2] === script) ||
							(w[1] === script && SCRIPT_SHORTCUTS.has(script)))) ||
					(script === 'ci' && w[0] === 'npm' && w[1] === 'ci'),
			),
	);

const ci = readYaml(path.join(WORKFLOWS, 'ci.yml'));
const publish = readYaml(path.join(WORKFLOWS, 'publish.yml'));
const ON_DEMAND = /github\.event_name == 'schedule' \|\| github\.event_name == 'workflow_dispatch'/;

describe('GitHub Actions workflows', () => {
	test('the checker finds what it must find: unknown scripts, unexpected npm commands, npx of a package that is not a devDependency', () => {
		const problems = npmProblems(
			[
				'npm ci',
				'npm run lint && npm run no-such-script -- --x',
				'FOO=1 npm tset',
				'if [ -n "$X" ]; then npx some-downloaded-tool --y; fi',
				'npm run dev -- --check',
				'npx n8n-node cloud-support',
			].join('\n'),
		);
		expect(problems).toEqual([
			'"npm run no-such-script -- --x": package.json has no script "no-such-script"',
			'"npm tset": "tset" is neither an npm command used here nor a script shortcut',
			'"npx some-downloaded-tool --y": no devDependency provides the binary "some-downloaded-tool" (npx would download it)',
		]);
	});

	test("both files pass GitHub's workflow parser and schema (YAML, keys, values, expressions, cron)", () => {
		const results = validate(['.github/workflows/ci.yml', '.github/workflows/publish.yml']);
		expect(results.map((r) => [r.file, r.errors])).toEqual([
			['.github/workflows/ci.yml', []],
			['.github/workflows/publish.yml', []],
		]);
		expect(results[0].jobs.map((j) => j.id)).toEqual(Object.keys(ci.jobs));
		expect(results[1].events).toEqual(['push']);
	});

	test('the parser reports a broken workflow (so the check above can fail)', () => {
		const bad = path.join(
			fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'wos-wf-')),
			'bad.yml',
		);
		fs.writeFileSync(
			bad,
			'on:\n  pushh:\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions:\n      id-token: writ\n    steps:\n      - run: echo ${{ github.x == }}\n',
		);
		const [result] = validate([bad]);
		expect(result.errors.join('\n')).toMatch(/Unexpected value 'pushh'/);
		expect(result.errors.join('\n')).toMatch(/Unexpected value 'writ'/);
		expect(result.errors.join('\n')).toMatch(/Unexpected end of expression/);
	});

	test('every npm / npx command in a run: step of ci.yml and publish.yml, and in .ci/run, exists', () => {
		const scripts = [
			...runSteps(ci),
			...runSteps(publish),
			fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8'),
		];
		expect(scripts.length).toBeGreaterThan(10);
		expect(scripts.flatMap((s) => npmProblems(s))).toEqual([]);
	});

	test('ci.yml: lint, tests, demo and scan on every push to main and every pull request', () => {
		expect(Object.keys(ci.on).sort()).toEqual([
			'pull_request',
			'push',
			'schedule',
			'workflow_dispatch',
		]);
		expect(ci.on.push.branches).toEqual(['main']);
		expect(ci.on.schedule[0].cron.split(' ')).toHaveLength(5);
		const always = Object.values(ci.jobs).filter((j) => !j.if);
		// the main job, and the quick benchmark beside it (issue 36: a broken workload cannot land)
		expect(always).toHaveLength(2);
		const job = always.find((j) => runsScript(j, 'lint'));
		const bench = always.find((j) => j !== job);
		expect(bench.steps.some((s) => s.run && /npm run bench -- --quick/.test(s.run))).toBe(true);
		for (const script of ['ci', 'lint', 'test', 'demo', 'scan'])
			expect([script, runsScript(job, script)]).toEqual([script, true]);
		expect(
			job.steps.some(
				(s) =>
					s.uses &&
					s.uses.startsWith('actions/setup-node@') &&
					Number(s.with['node-version']) >= 20,
			),
		).toBe(true);
	});

	test('ci.yml: the real-n8n, queue-mode and browser suites and `npm run dev -- --check` run on schedule / manual dispatch, in Debian, with the packages .ci/run relies on', () => {
		const onDemand = Object.entries(ci.jobs).filter(([, j]) => j.if);
		expect(onDemand.length).toBeGreaterThanOrEqual(1);
		for (const [id, job] of onDemand) {
			expect([id, ON_DEMAND.test(job.if)]).toEqual([id, true]);
			expect([id, /^node:\d+-bookworm$/.test(job.container)]).toEqual([id, true]);
			expect([id, runsScript(job, 'ci')]).toEqual([id, true]);
		}
		const jobRunning = (script) => onDemand.find(([, j]) => runsScript(j, script));
		for (const script of ['test:e2e', 'test:queue', 'test:editor', 'dev'])
			expect([script, Boolean(jobRunning(script))]).toEqual([script, true]);
		const devStep = jobRunning('dev')[1].steps.find((s) => s.run && /npm run dev\b/.test(s.run));
		expect(devStep.run).toMatch(/npm run dev -- --check/);
		const aptOf = (script) =>
			jobRunning(script)[1]
				.steps.filter((s) => s.run && /apt-get install/.test(s.run))
				.map((s) => s.run)
				.join(' ');
		for (const script of ['test:e2e', 'test:queue', 'test:editor'])
			expect(aptOf(script)).toMatch(/python3 make g\+\+/);
		expect(aptOf('test:queue')).toMatch(/redis-server/);
		expect(aptOf('test:queue')).toMatch(/postgresql/);
		expect(aptOf('test:editor')).toMatch(/\bchromium\b/);
	});

	test('publish.yml: on a version tag only, id-token: write, lint + tests + scan, then npm publish --provenance --access public', () => {
		expect(Object.keys(publish.on)).toEqual(['push']);
		expect(Object.keys(publish.on.push)).toEqual(['tags']);
		expect(publish.permissions).toEqual({ contents: 'read' });
		const [job] = Object.values(publish.jobs);
		expect(job.permissions['id-token']).toBe('write');
		expect(job.if).toBeUndefined();
		const steps = job.steps;
		const index = (pred) => steps.findIndex((s) => s.run && pred(s.run));
		const publishAt = index((r) =>
			shellCommands(r).some((w) => w[0] === 'npm' && w[1] === 'publish'),
		);
		expect(publishAt).toBeGreaterThan(0);
		const words = shellCommands(steps[publishAt].run).find(
			(w) => w[0] === 'npm' && w[1] === 'publish',
		);
		expect(words).toEqual(expect.arrayContaining(['--provenance', '--access', 'public']));
		expect(words[words.indexOf('--access') + 1]).toBe('public');
		expect(publishAt).toBe(steps.length - 1);
		for (const script of ['ci', 'lint', 'test', 'scan']) {
			const at = steps.findIndex((s) => runsScript({ steps: [s] }, script));
			expect([script, at >= 0 && at < publishAt]).toEqual([script, true]);
		}
	});

	test('publish.yml and the prepublish guard agree: the tag v<version> matches the trigger, and the guard lets that run publish', () => {
		const tag = `v${pkg.version}`;
		const globToRegExp = (glob) =>
			new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
		expect(publish.on.push.tags.some((t) => globToRegExp(t).test(tag))).toBe(true);
		expect(publish.on.push.tags.some((t) => globToRegExp(t).test(pkg.version))).toBe(false);
		const env = {
			GITHUB_ACTIONS: 'true',
			GITHUB_WORKFLOW_REF: `owner/n8n-nodes-work-order-service/.github/workflows/publish.yml@refs/tags/${tag}`,
			GITHUB_REF_TYPE: 'tag',
			GITHUB_REF_NAME: tag,
		};
		expect(refusalReasons(env, pkg.version)).toEqual([]);
		expect(
			refusalReasons(
				{ ...env, GITHUB_WORKFLOW_REF: env.GITHUB_WORKFLOW_REF.replace('publish.yml', 'ci.yml') },
				pkg.version,
			),
		).toHaveLength(1);
	});

	test('package.json: publishConfig (public, provenance, scripts on for the guard), the guard as prepublishOnly and first in prepack; CHANGELOG.md has this version', () => {
		expect(pkg.publishConfig).toEqual({
			access: 'public',
			provenance: true,
			'ignore-scripts': false,
		});
		expect(pkg.scripts.prepublishOnly).toBe('node scripts/prepublish-guard.js');
		expect(pkg.scripts.prepack).toMatch(/^node scripts\/prepublish-guard\.js && npm run build$/);
		const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
		// dated when it is released (publish.yml refuses an undated section), "Unreleased" until then
		expect(changelog).toMatch(
			new RegExp(
				`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - (\\d{4}-\\d{2}-\\d{2}|Unreleased)$`,
				'm',
			),
		);
	});
});
