'use strict';
/**
 * docs/parameters.md lists the parameter names saved workflows hold; it is written from the built
 * node description by scripts/parameters-doc.js. This test fails when the page is stale (a
 * parameter renamed or added without the page following).
 */
const { spawnSync } = require('child_process');
const path = require('path');

test('docs/parameters.md is what scripts/parameters-doc.js writes from the node description', () => {
	const r = spawnSync(
		process.execPath,
		[path.join(__dirname, '../../../scripts/parameters-doc.js'), '--check'],
		{ encoding: 'utf8' },
	);
	expect(r.stderr).toBe('');
	expect(r.stdout).toContain('docs/parameters.md is up to date');
	expect(r.status).toBe(0);
});
