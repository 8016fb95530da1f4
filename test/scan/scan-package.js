#!/usr/bin/env node
'use strict';
/**
 * n8n's verification scan of community packages, run locally on this package.
 *
 *   npm run scan                               (= npm run build && node test/scan/scan-package.js)
 *   node test/scan/scan-package.js --tarball f.tgz   (scan a given tarball instead of packing this clone)
 *   node test/scan/scan-package.js --tarball f.tgz --source dir   (and the sources in dir, e.g. a clean clone)
 *
 * `npx @n8n/scan-community-package <name>` only takes a published package name: it checks the npm
 * provenance, downloads the attested GitHub source and the published tarball, and lints both with
 * the same ESLint set-up. Its module exports that analysis (`analyzePackage`, `buildScanConfig`,
 * `SOURCE_FILE_PATTERNS`), which this script runs on
 *   1. the tarball `npm pack` makes of this clone, extracted (compiled `.js` + package.json), and
 *   2. this clone's sources (package.json + nodes/ + credentials/, i.e. SOURCE_FILE_PATTERNS),
 * exactly as `analyzePackageByName` does for the tarball and the attested source. Not covered
 * here (needs a published version): the provenance check and fetching the source from GitHub.
 * Also checked: the packed package has no runtime dependencies.
 *
 * And what `n8n-node lint` (npm run lint) does not enforce by itself, on the sources:
 *   3. n8n Cloud eligibility as `n8n-node cloud-support` decides it: package.json n8n.strict is true
 *      and eslint.config.mjs is @n8n/node-cli's default (what strict mode compares it with);
 *   4. the whole repository linted with that config (`n8n-node lint` = `eslint .`): 0 errors and
 *      0 warnings (n8n-node lint exits 0 on warnings);
 *   5. the shipped sources (package.json, nodes/, credentials/) linted with n8n-node lint's rules
 *      with inline configuration ignored, as the scanner lints: an `eslint-disable` comment hides
 *      nothing, from n8n-node lint's rules either (no-console included);
 *   6. no ESLint directive comments (eslint-disable, eslint-enable, eslint rule settings) in
 *      nodes/ and credentials/ at all.
 *
 * Prints every finding and `scan: N passed, M failed`; exit 1 on any finding.
 */

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { packPackage } = require('../e2e/n8n');

const ROOT = path.resolve(__dirname, '..', '..');

function packTarball(workDir) {
	const i = process.argv.indexOf('--tarball');
	if (i >= 0) {
		const file = path.resolve(process.argv[i + 1] || '');
		if (!fs.existsSync(file)) throw new Error(`--tarball ${file}: no such file`);
		return file;
	}
	// the build ran before (npm run scan)
	return packPackage(workDir).tarball;
}

/** The warnings of the same lint analyzePackage runs (same config, same files), formatted; '' when none. */
async function lintWarnings(scanner, dir, patterns) {
	const { ESLint } = await import('eslint');
	const glob = require('fast-glob');
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	if (!files.length) return '';
	const results = (await eslint.lintFiles(files))
		.map((r) => ({
			...r,
			messages: r.messages.filter((m) => m.severity === 1),
			errorCount: 0,
			fatalErrorCount: 0,
			fixableErrorCount: 0,
		}))
		.filter((r) => r.messages.length);
	if (!results.length) return '';
	return (await (await eslint.loadFormatter('stylish')).format(results)).trim();
}

/** Files under nodes/ and credentials/ of `dir` (.ts, .js, .json), relative paths. */
function shippedSources(dir) {
	const glob = require('fast-glob');
	return glob
		.sync(['{nodes,credentials}/**/*.{ts,js,json}'], { cwd: dir, ignore: ['**/node_modules/**'] })
		.sort();
}

/** An ESLint directive in a comment: eslint-disable(-next-line|-line), eslint-enable, /* eslint rule: ... *\/. */
const ESLINT_DIRECTIVE =
	/\/\/\s*eslint(?:-disable|-enable)?(?:[-\w]*)?(?=[\s:]|$)|\/\*\s*eslint(?:-disable|-enable|-env)?[-\w]*(?=[\s:*])/;

/** Checks 3-6 (see the header) on the sources in `dir`; pushes results, prints findings. */
async function sourceChecks(dir, record) {
	// @n8n/node-cli exports only ./eslint (dist/configs/eslint.js): its folder is two levels up.
	const cliDir = path.resolve(path.dirname(require.resolve('@n8n/node-cli/eslint')), '..', '..');
	const nodeCli = JSON.parse(fs.readFileSync(path.join(cliDir, 'package.json'), 'utf8'));

	// 3. strict mode + the default eslint.config.mjs, compared the way `n8n-node lint` compares them
	await record(
		`n8n Cloud eligible (@n8n/node-cli ${nodeCli.version} cloud-support): n8n.strict true, eslint.config.mjs is the default`,
		async () => {
			const normalize = (text) => text.replace(/\s+/g, ' ').trim();
			const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
			const problems = [];
			if (pkg.n8n?.strict !== true) problems.push('package.json: n8n.strict is not true');
			const template = path.join(
				cliDir,
				'dist',
				'template',
				'templates',
				'shared',
				'default',
				'eslint.config.mjs',
			);
			const expected = fs.readFileSync(template, 'utf8');
			const configFile = path.join(dir, 'eslint.config.mjs');
			if (!fs.existsSync(configFile)) problems.push('eslint.config.mjs is missing');
			else if (normalize(fs.readFileSync(configFile, 'utf8')) !== normalize(expected))
				problems.push(`eslint.config.mjs differs from the default:\n${expected}`);
			return problems;
		},
	);

	const { ESLint } = await import('eslint');
	const { config } = require('@n8n/node-cli/eslint');
	const format = async (eslint, results) =>
		(await (await eslint.loadFormatter('stylish')).format(results)).trim();

	// 4. `eslint .` with the repository's config (what n8n-node lint runs), warnings count
	await record(
		'n8n-node lint (eslint . with eslint.config.mjs): 0 errors, 0 warnings in the whole repository',
		async () => {
			const eslint = new ESLint({ cwd: dir });
			const results = (await eslint.lintFiles(['.'])).filter((r) => r.errorCount || r.warningCount);
			return results.length ? [await format(eslint, results)] : [];
		},
	);

	// 5. n8n-node lint's rules on the shipped sources, inline configuration ignored
	await record(
		"n8n-node lint's rules on package.json, nodes/, credentials/ with inline configuration ignored: 0 problems",
		async () => {
			const eslint = new ESLint({
				cwd: dir,
				overrideConfigFile: true,
				overrideConfig: config,
				allowInlineConfig: false,
			});
			const files = ['package.json', ...shippedSources(dir).filter((f) => f.endsWith('.ts'))];
			const results = (await eslint.lintFiles(files)).filter((r) => r.errorCount || r.warningCount);
			return results.length ? [await format(eslint, results)] : [];
		},
	);

	// 6. no directive comments at all in what ships
	await record(
		'no ESLint directive comments (eslint-disable, eslint-enable, /* eslint ... */) in nodes/ and credentials/',
		async () => {
			const found = [];
			for (const file of shippedSources(dir)) {
				fs.readFileSync(path.join(dir, file), 'utf8')
					.split('\n')
					.forEach((line, i) => {
						if (ESLINT_DIRECTIVE.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
					});
			}
			return found;
		},
	);
}

async function main() {
	const started = Date.now();
	const results = [];
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wos-scan-'));
	try {
		// The scanner makes a temp folder when loaded; have it removed when this process exits.
		require('tmp').setGracefulCleanup();
		const scannerPkg = require('@n8n/scan-community-package/package.json');
		const scanner = await import('@n8n/scan-community-package/scanner/scanner.mjs');
		for (const name of ['analyzePackage', 'SOURCE_FILE_PATTERNS']) {
			if (!scanner[name])
				throw new Error(
					`@n8n/scan-community-package ${scannerPkg.version} no longer exports ${name}`,
				);
		}
		const tarball = packTarball(workDir);
		const packageDir = path.join(workDir, 'package');
		fs.mkdirSync(packageDir);
		const untar = spawnSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], {
			encoding: 'utf8',
		});
		if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
		const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
		console.log(
			`scan: ${manifest.name}@${manifest.version} with @n8n/scan-community-package ${scannerPkg.version} (${path.basename(tarball)})`,
		);

		const si = process.argv.indexOf('--source');
		const sourceDir = si >= 0 ? path.resolve(process.argv[si + 1] || '') : ROOT;
		if (!fs.existsSync(path.join(sourceDir, 'package.json')))
			throw new Error(`--source ${sourceDir}: no package.json there`);
		const legs = [
			// What analyzePackageByName lints in the downloaded tarball.
			{
				name: `packed tarball (compiled .js + package.json)`,
				dir: packageDir,
				patterns: ['**/*.js', 'package.json'],
			},
			// What it lints in the provenance-attested source checkout.
			{
				name: `sources (${scanner.SOURCE_FILE_PATTERNS.join(', ')}) in ${sourceDir === ROOT ? 'this clone' : sourceDir}`,
				dir: sourceDir,
				patterns: scanner.SOURCE_FILE_PATTERNS,
			},
		];
		for (const leg of legs) {
			const t = Date.now();
			const result = await scanner.analyzePackage(leg.dir, leg.patterns);
			const ok = Boolean(result.passed);
			results.push({ name: leg.name, ok });
			console.log(
				`${ok ? 'ok  ' : 'FAIL'} ${leg.name}: ${ok ? result.message || 'no findings' : result.message} (${Date.now() - t} ms)`,
			);
			if (!ok && result.details) console.log(result.details.replace(/^/gm, '     '));
			if (!ok && result.error)
				console.log(String(result.error.stack || result.error).replace(/^/gm, '     '));
			// n8n's scan fails on errors only; show the rule set's warnings too (they do not fail it).
			const warnings = await lintWarnings(scanner, leg.dir, leg.patterns);
			if (warnings)
				console.log(
					`     warnings (not failures in n8n's scan):\n${warnings.replace(/^/gm, '     ')}`,
				);
		}

		await sourceChecks(sourceDir, async (name, fn) => {
			const t = Date.now();
			let problems;
			try {
				problems = await fn();
			} catch (err) {
				problems = [String(err.stack || err)];
			}
			const ok = problems.length === 0;
			results.push({ name, ok });
			console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${Date.now() - t} ms)`);
			if (!ok) console.log(problems.join('\n').replace(/^/gm, '     '));
		});

		const deps = Object.keys(manifest.dependencies || {});
		const runtimeOk = deps.length === 0;
		results.push({ name: 'no runtime dependencies', ok: runtimeOk });
		console.log(
			`${runtimeOk ? 'ok  ' : 'FAIL'} no runtime dependencies in the packed package.json${runtimeOk ? '' : `: ${deps.join(', ')}`}`,
		);
	} catch (err) {
		results.push({ name: 'setup', ok: false });
		console.log(`FAIL setup\n${String(err.stack || err).replace(/^/gm, '     ')}`);
	} finally {
		fs.rmSync(workDir, { recursive: true, force: true });
	}
	const passed = results.filter((r) => r.ok).length;
	console.log(
		`scan wall time: ${((Date.now() - started) / 1000).toFixed(1)} s; not checked locally: npm provenance and the GitHub source download (published versions only)`,
	);
	console.log(`scan: ${passed} passed, ${results.length - passed} failed`);
	process.exitCode = passed === results.length ? 0 : 1;
}

main();
