#!/usr/bin/env node
'use strict';
/**
 * Refuses `npm publish` anywhere but in the release workflow (.github/workflows/publish.yml, started
 * by a version tag on GitHub Actions), so that every published version carries an npm provenance
 * statement: n8n verifies community nodes only when they were published that way.
 *
 * It runs twice on a publish of this directory, so that no configuration can skip it:
 *   - `prepublishOnly` (npm runs it when scripts are enabled);
 *   - the first step of `prepack`. The repository's .npmrc sets ignore-scripts=true (the
 *     dependencies' install scripts must not run: one builds native code for Node 24, another
 *     insists on pnpm), and that makes npm skip prepublishOnly. package.json's publishConfig sets
 *     "ignore-scripts": false, which npm applies while it packs for a publish, so prepack (this
 *     guard, then the build) runs on every `npm publish` all the same.
 *
 * Allowed everywhere: `npm pack` (npm_command=pack), `npm run prepack`, and `npm publish --dry-run`
 * (nothing is uploaded; it says whether a real publish would be refused).
 * Exit code 1 with the reason when a publish is refused.
 */
const path = require('node:path');

const pkg = require(path.join(__dirname, '..', 'package.json'));

/** Why a publish would be refused in this environment ([] = allowed). */
function refusalReasons(env, version) {
	if (env.GITHUB_ACTIONS !== 'true')
		return ['this is not a GitHub Actions run (GITHUB_ACTIONS is not "true")'];
	const reasons = [];
	const workflowRef = env.GITHUB_WORKFLOW_REF || '';
	if (!/\/\.github\/workflows\/publish\.yml@/.test(workflowRef)) {
		reasons.push(
			`the workflow is ${workflowRef || '(unknown)'}, not .github/workflows/publish.yml`,
		);
	}
	if (env.GITHUB_REF_TYPE !== 'tag') {
		const ref = [env.GITHUB_REF_TYPE || '(unknown)', env.GITHUB_REF_NAME].filter(Boolean).join(' ');
		reasons.push(`the run was started by ${ref}, not by a version tag`);
	} else if (env.GITHUB_REF_NAME !== `v${version}`) {
		reasons.push(
			`the tag ${env.GITHUB_REF_NAME} does not match the version in package.json (${version}: tag v${version})`,
		);
	}
	return reasons;
}

function main() {
	const env = process.env;
	// npm sets npm_command for the scripts it runs: "publish" on `npm publish`, "pack" on `npm pack`.
	const command = env.npm_command;
	if (command && command !== 'publish') return 0;
	const reasons = refusalReasons(env, pkg.version);
	const dryRun = env.npm_config_dry_run === 'true';
	if (!reasons.length) {
		process.stdout.write(
			`prepublish guard: publishing ${pkg.name}@${pkg.version} from ${env.GITHUB_WORKFLOW_REF} (${env.GITHUB_SHA || 'unknown commit'})\n`,
		);
		return 0;
	}
	const why = reasons.map((r) => `  - ${r}\n`).join('');
	if (dryRun) {
		process.stdout.write(
			`prepublish guard: dry run, nothing is uploaded. A real publish would be refused here:\n${why}`,
		);
		return 0;
	}
	process.stderr.write(
		`\nnpm publish refused: ${pkg.name} is published only by the GitHub Actions workflow\n` +
			`.github/workflows/publish.yml, started by pushing the tag v${pkg.version}, with an npm provenance\n` +
			`statement (n8n verifies community nodes only when they were published that way).\n` +
			`Refused because:\n${why}` +
			`To release: set "version" in package.json, add its section to CHANGELOG.md, commit, then\n` +
			`  git tag v<version> && git push origin v<version>\n` +
			`(see "Releasing" in docs/development.md). To see what would be published: npm pack --dry-run\n\n`,
	);
	return 1;
}

if (require.main === module) process.exitCode = main();

module.exports = { refusalReasons };
