#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * Writes docs/parameters.md from the built node descriptions (dist/): for each resource and
 * operation of the Work Order Service node, the parameter names a saved workflow holds, with the
 * values of option lists and the fields of collections. `--check` fails when the file is stale
 * (test/node/description/parametersDoc.test.js runs it). The page's end, from the marker line on
 * (the conventions), is written by hand and kept as it is.
 *
 *   npm run build && node scripts/parameters-doc.js [--check]
 */
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'docs', 'parameters.md');
/** Below this line the page is written by hand (the conventions); the script keeps it as it is. */
const MARKER = '<!-- Written by hand below this line: scripts/parameters-doc.js keeps it. -->';

/** The hand-written part of the page as it stands (from the marker on), or nothing. */
function handWritten() {
	const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
	const at = current.indexOf(MARKER);
	return at === -1 ? '' : current.slice(at);
}

/** @param {any} p */
function describeParam(p) {
	let text = `\`${p.name}\``;
	if (p.type === 'options' && Array.isArray(p.options))
		text += ` (${p.options.map((/** @type {any} */ o) => `\`${o.value}\``).join(' · ')})`;
	else if (p.type === 'multiOptions' && Array.isArray(p.options))
		text += ` (any of ${p.options.map((/** @type {any} */ o) => `\`${o.value}\``).join(' · ')})`;
	else if (p.type === 'resourceLocator')
		text += ` (resource locator: ${p.modes.map((/** @type {any} */ m) => `\`${m.name}\``).join(' · ')})`;
	else if ((p.type === 'collection' || p.type === 'fixedCollection') && Array.isArray(p.options)) {
		const inner =
			p.type === 'collection'
				? p.options
				: p.options.flatMap((/** @type {any} */ o) => o.values || []);
		text += `: ${inner.map(describeParam).join(', ')}`;
	}
	return text;
}

/** @param {any} p @param {string} resource @param {string} operation */
function shownFor(p, resource, operation) {
	const show = p.displayOptions?.show;
	if (!show) return false;
	return (show.resource || []).includes(resource) && (show.operation || []).includes(operation);
}

function render() {
	const { WorkOrderService } = require(
		path.join(ROOT, 'dist/nodes/WorkOrderService/WorkOrderService.node.js'),
	);
	const d = new WorkOrderService().description;
	const resources = d.properties.find((/** @type {any} */ p) => p.name === 'resource').options;
	const lines = [
		'# Parameter names',
		'',
		'The names and values a saved workflow holds for the **Work Order Service** node, by resource and',
		"operation (the editor shows the display names the README's [Operations](../README.md#operations)",
		"section uses). Written by `node scripts/parameters-doc.js` from the node's description; a test",
		'fails when this page is stale.',
		'',
		'Every operation: `authentication` (' +
			d.properties
				.find((/** @type {any} */ p) => p.name === 'authentication')
				.options.map((/** @type {any} */ o) => `\`${o.value}\``)
				.join(' · ') +
			'), `resource`, `operation`, and `requestOptions`: ' +
			d.properties
				.find((/** @type {any} */ p) => p.name === 'requestOptions')
				.options.map((/** @type {any} */ o) => `\`${o.name}\``)
				.join(', ') +
			'.',
		'',
	];
	for (const r of resources) {
		lines.push(`## ${r.name} (\`${r.value}\`)`, '');
		const ops = d.properties.find(
			(/** @type {any} */ p) =>
				p.name === 'operation' && p.displayOptions.show.resource.includes(r.value),
		).options;
		for (const o of ops) {
			const seen = new Set();
			const params = d.properties
				.filter((/** @type {any} */ p) => shownFor(p, r.value, o.value))
				.filter((/** @type {any} */ p) => {
					if (seen.has(p.name)) return false;
					seen.add(p.name);
					return p.type !== 'notice';
				});
			lines.push(
				`- **${o.name}** (\`${o.value}\`): ${params.length ? params.map(describeParam).join('; ') : 'no parameters of its own'}.`,
			);
		}
		lines.push('');
	}
	lines.push(
		"The polling trigger's and the instant trigger's parameters: [trigger.md](trigger.md),",
		'[webhook-trigger.md](webhook-trigger.md). The conventions these names follow:',
		'[Conventions](#conventions).',
		'',
	);
	return lines.join('\n') + handWritten();
}

const text = render();
if (process.argv.includes('--check')) {
	const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
	if (!current.includes(MARKER)) {
		console.error('docs/parameters.md has lost its hand-written conventions (the marker line)');
		process.exit(1);
	}
	if (current !== text) {
		console.error(
			'docs/parameters.md is stale: run `npm run build && node scripts/parameters-doc.js`',
		);
		process.exit(1);
	}
	console.log('docs/parameters.md is up to date');
} else {
	fs.writeFileSync(OUT, text);
	console.log(`wrote ${path.relative(ROOT, OUT)}`);
}
