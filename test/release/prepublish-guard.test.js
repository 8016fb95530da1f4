'use strict';
/**
 * `npm publish` is refused outside the release workflow, with the real npm and the real scripts of
 * package.json. Each case runs in a copy of the package that has this repository's package.json
 * (scripts, publishConfig), .npmrc (ignore-scripts=true) and scripts/prepublish-guard.js, with two
 * changes so that nothing leaves the machine: the `build` script only writes a marker file, and the
 * registry is a local HTTP server here that records every request (and never accepts a publish).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { refusalReasons } = require('../../scripts/prepublish-guard');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const TAG = `v${pkg.version}`;
const RELEASE_ENV = {
	GITHUB_ACTIONS: 'true',
	CI: 'true',
	GITHUB_WORKFLOW_REF: `acme/n8n-nodes-work-order-service/.github/workflows/publish.yml@refs/tags/${TAG}`,
	GITHUB_REF: `refs/tags/${TAG}`,
	GITHUB_REF_TYPE: 'tag',
	GITHUB_REF_NAME: TAG,
	GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
};

let registry;
let requests;
let dir;

beforeAll(async () => {
	requests = [];
	registry = http.createServer((req, res) => {
		req.resume();
		requests.push(`${req.method} ${req.url}`);
		res.writeHead(req.method === 'GET' ? 404 : 500, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				error: req.method === 'GET' ? 'Not found' : 'this test registry accepts no publish',
			}),
		);
	});
	await new Promise((resolve) => registry.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${registry.address().port}/`;

	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wos-publish-'));
	const copy = JSON.parse(JSON.stringify(pkg));
	copy.scripts.build = "node -e \"require('fs').writeFileSync('built.marker', '')\"";
	copy.files = ['index.js'];
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(copy, null, 2));
	fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = {};\n');
	fs.mkdirSync(path.join(dir, 'scripts'));
	fs.copyFileSync(
		path.join(ROOT, 'scripts', 'prepublish-guard.js'),
		path.join(dir, 'scripts', 'prepublish-guard.js'),
	);
	const npmrc = fs.readFileSync(path.join(ROOT, '.npmrc'), 'utf8');
	expect(npmrc).toMatch(/^ignore-scripts=true$/m); // the case the guard has to work around
	fs.writeFileSync(
		path.join(dir, '.npmrc'),
		`${npmrc}\nregistry=${origin}\n//127.0.0.1:${registry.address().port}/:_authToken=test-token-not-a-secret\n`,
	);
	fs.writeFileSync(path.join(dir, 'user.npmrc'), '');
});

afterAll(async () => {
	await new Promise((resolve) => registry.close(resolve));
	fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
	requests.length = 0;
	fs.rmSync(path.join(dir, 'built.marker'), { force: true });
});

/** Run npm in the copy with a clean environment plus `env`; resolves { code, output }. */
function npm(args, env = {}) {
	const base = {};
	for (const [k, v] of Object.entries(process.env)) {
		// no npm_* of the jest run (npm test exports its config), no CI markers of wherever this runs
		if (
			/^(npm_|GITHUB_|ACTIONS_|RUNNER_|CI$|CONTINUOUS_INTEGRATION$|BUILD_NUMBER$|GITLAB|CIRCLE)/i.test(
				k,
			)
		)
			continue;
		base[k] = v;
	}
	return new Promise((resolve, reject) => {
		const child = spawn(
			'npm',
			[...args, '--loglevel=notice', '--fund=false', '--audit=false', '--update-notifier=false'],
			{
				cwd: dir,
				env: {
					...base,
					npm_config_userconfig: path.join(dir, 'user.npmrc'),
					npm_config_cache: path.join(dir, '.npm-cache'),
					...env,
				},
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let output = '';
		child.stdout.on('data', (d) => (output += d));
		child.stderr.on('data', (d) => (output += d));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, output }));
	});
}

const built = () => fs.existsSync(path.join(dir, 'built.marker'));
const uploads = () => requests.filter((r) => !r.startsWith('GET '));

describe('npm publish outside the release workflow is refused', () => {
	test('on a laptop: `npm publish` (.npmrc ignore-scripts=true) stops at the guard with the reason; nothing built, nothing sent to the registry', async () => {
		const { code, output } = await npm(['publish']);
		expect(code).not.toBe(0);
		expect(output).toContain(
			`npm publish refused: ${pkg.name} is published only by the GitHub Actions workflow`,
		);
		expect(output).toContain('this is not a GitHub Actions run');
		expect(output).toContain('git tag v<version> && git push origin v<version>');
		expect(built()).toBe(false);
		expect(requests).toEqual([]);
	}, 60_000);

	test('with scripts enabled (`npm publish --ignore-scripts=false`): refused by prepublishOnly, before packing', async () => {
		const { code, output } = await npm(['publish', '--ignore-scripts=false']);
		expect(code).not.toBe(0);
		expect(output).toMatch(/prepublishOnly/);
		expect(output).toContain('npm publish refused');
		expect(built()).toBe(false);
		expect(requests).toEqual([]);
	}, 60_000);

	test('in GitHub Actions but another workflow (ci.yml on main): refused, naming both reasons', async () => {
		const { code, output } = await npm(['publish'], {
			...RELEASE_ENV,
			GITHUB_WORKFLOW_REF:
				'acme/n8n-nodes-work-order-service/.github/workflows/ci.yml@refs/heads/main',
			GITHUB_REF_TYPE: 'branch',
			GITHUB_REF_NAME: 'main',
		});
		expect(code).not.toBe(0);
		expect(output).toContain(
			'the workflow is acme/n8n-nodes-work-order-service/.github/workflows/ci.yml@refs/heads/main, not .github/workflows/publish.yml',
		);
		expect(output).toContain('the run was started by branch main, not by a version tag');
		expect(built()).toBe(false);
		expect(uploads()).toEqual([]);
	}, 60_000);

	test('the release workflow with a tag that is not the version: refused', async () => {
		const { code, output } = await npm(['publish'], { ...RELEASE_ENV, GITHUB_REF_NAME: 'v9.9.9' });
		expect(code).not.toBe(0);
		expect(output).toContain(
			`the tag v9.9.9 does not match the version in package.json (${pkg.version}: tag ${TAG})`,
		);
		expect(built()).toBe(false);
		expect(uploads()).toEqual([]);
	}, 60_000);

	test('`npm publish --dry-run` on a laptop is allowed (nothing is uploaded) and says a real publish would be refused', async () => {
		const { code, output } = await npm(['publish', '--dry-run']);
		expect(code).toBe(0);
		expect(output).toContain('A real publish would be refused here');
		expect(built()).toBe(true);
		expect(uploads()).toEqual([]);
	}, 60_000);

	test('`npm pack --ignore-scripts=false` is not a publish: the guard lets it build', async () => {
		const { code } = await npm(['pack', '--dry-run', '--ignore-scripts=false']);
		expect(code).toBe(0);
		expect(built()).toBe(true);
		expect(requests).toEqual([]);
	}, 60_000);
});

describe('npm publish in the release workflow', () => {
	test('publish.yml on its tag: the guard lets it through and the build runs (dry run)', async () => {
		const { code, output } = await npm(['publish', '--dry-run'], RELEASE_ENV);
		expect(code).toBe(0);
		expect(output).toContain(
			`prepublish guard: publishing ${pkg.name}@${pkg.version} from ${RELEASE_ENV.GITHUB_WORKFLOW_REF}`,
		);
		expect(built()).toBe(true);
		expect(uploads()).toEqual([]);
	}, 60_000);

	test('publish.yml on its tag but without `id-token: write`: npm refuses to publish without a provenance statement (publishConfig.provenance)', async () => {
		const { code, output } = await npm(['publish'], RELEASE_ENV);
		expect(code).not.toBe(0);
		expect(built()).toBe(true);
		expect(output).toMatch(
			/Provenance generation in GitHub Actions requires "write" access to the "id-token" permission/,
		);
		expect(uploads()).toEqual([]);
	}, 60_000);
});

describe('refusalReasons', () => {
	test('one reason per thing that is not the release run', () => {
		expect(refusalReasons({}, '0.1.0')).toEqual([
			'this is not a GitHub Actions run (GITHUB_ACTIONS is not "true")',
		]);
		expect(refusalReasons({ ...RELEASE_ENV, GITHUB_REF_NAME: 'v0.1.0' }, '0.1.0')).toEqual([]);
		expect(refusalReasons({ ...RELEASE_ENV, GITHUB_REF_NAME: '0.1.0' }, '0.1.0')).toEqual([
			'the tag 0.1.0 does not match the version in package.json (0.1.0: tag v0.1.0)',
		]);
		expect(refusalReasons({ GITHUB_ACTIONS: 'true' }, '0.1.0')).toEqual([
			'the workflow is (unknown), not .github/workflows/publish.yml',
			'the run was started by (unknown), not by a version tag',
		]);
	});
});
