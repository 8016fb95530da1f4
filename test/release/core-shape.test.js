'use strict';
/*
 * The core's shape, as issue 29 states it and docs/architecture.md documents it: one Proposal ->
 * Approve crosses at most 11 files of the package (8 in issue 29; issue 35 gives every write one
 * output, helpers/writeAnswer.ts with helpers/values.ts, and one move for proposals and invoices,
 * actions/move.ts) (measured by V8's precise coverage in
 * scripts/approve-route.js, which runs it through n8n-core against the emulator), transport/ + auth/
 * stay short, and the source reads no private field of a foreign object and starts no free timer.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'nodes/WorkOrderService');

function sourceFiles(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(file);
		return entry.name.endsWith('.ts') ? [file] : [];
	});
}

const lineCount = (file) => fs.readFileSync(file, 'utf8').split('\n').length - 1;

describe('the core a reviewer reads (issue 29)', () => {
	test('one approve crosses at most 11 files: with a login, with the stored token', () => {
		const out = execFileSync(
			process.execPath,
			[path.join(ROOT, 'scripts/approve-route.js'), '--json'],
			{ cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
		);
		const route = JSON.parse(out);
		for (const name of ['login', 'stored']) {
			expect(route[name].files.length).toBeGreaterThanOrEqual(6);
			expect(route[name].files.length).toBeLessThanOrEqual(11);
			expect(route[name].files).toEqual(
				expect.arrayContaining([
					'nodes/WorkOrderService/actions/proposal/move.js',
					'nodes/WorkOrderService/transport/client.js',
					'nodes/WorkOrderService/auth/tokens.js',
					'nodes/WorkOrderService/helpers/writeAnswer.js',
				]),
			);
		}
		// the error path adds the words and the redaction
		expect(route.refused.files).toEqual(
			expect.arrayContaining([
				'nodes/WorkOrderService/transport/errors.js',
				'nodes/WorkOrderService/transport/secrets.js',
			]),
		);
	}, 150_000);

	// Measured in Prettier's layout (n8n's 100 columns): the 2,566 hand-formatted lines of issue 29 are
	// 3,519 formatted (errors.ts 629, tokens.ts 558, budget.ts 507); downloads through the client
	// (issue 35), a request sent at most once and work shared per execution (issue 33's invoice moves
	// and bulk payments) brought it to 3,618: the limits keep that size.
	test('transport/ + auth/: at most 3,650 lines together, no file over 650', () => {
		const files = [
			...sourceFiles(path.join(SRC, 'transport')),
			...sourceFiles(path.join(SRC, 'auth')),
		];
		const lines = files.map(lineCount);
		expect(files.length).toBeGreaterThan(5);
		expect(lines.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3650);
		const over = files.filter((file, i) => lines[i] > 650).map((file) => path.relative(ROOT, file));
		expect(over).toEqual([]);
	});

	test('no read of a private field of a foreign object, no timer outside a waiting call', () => {
		const files = [...sourceFiles(SRC), ...sourceFiles(path.join(ROOT, 'credentials'))];
		const found = [];
		for (const file of files) {
			fs.readFileSync(file, 'utf8')
				.split('\n')
				.forEach((line, i) => {
					if (/\._[a-zA-Z]/.test(line) || /sleep\([^)]*\)\.then|setInterval\(/.test(line))
						found.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
				});
		}
		expect(found).toEqual([]);
	});
});
