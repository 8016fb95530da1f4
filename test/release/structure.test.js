'use strict';
/*
 * Imports that run one way (issue 35, docs/architecture.md "Layers"): a static count of every
 * import between the folders of nodes/WorkOrderService (type-only imports included: they tie the
 * folders as much as any other), and no cycle between two folders. The folders are the top ones
 * (actions/, auth/, descriptions/, helpers/, methods/, transport/, trigger/, webhook/, and the node
 * files at the top) and, inside actions/, each resource's folder: a resource may use what actions/
 * itself holds (the router's types, the shared Visibility and whole-list code) and another
 * resource's shared parts, never the other way round in a loop.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'nodes/WorkOrderService');

/** Known cycles between folders: none (auth/ stands above transport/, toolMode.ts lives in actions/). */
const KNOWN_CYCLES = [];

function sourceFiles(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(file);
		return entry.name.endsWith('.ts') ? [file] : [];
	});
}

/** The file an import specifier names: `./x` is x.ts or x/index.ts. */
function resolve(from, specifier) {
	const base = path.resolve(path.dirname(from), specifier);
	for (const file of [`${base}.ts`, path.join(base, 'index.ts')])
		if (fs.existsSync(file)) return file;
	throw new Error(`${path.relative(ROOT, from)} imports ${specifier}, which is no file`);
}

/** The folder a file counts in: the top folder, or actions/<resource> inside actions/. */
function folderOf(file) {
	const parts = path.relative(SRC, file).split(path.sep);
	if (parts.length === 1) return '.';
	if (parts[0] === 'actions' && parts.length > 2) return `actions/${parts[1]}`;
	return parts[0];
}

/** Every relative import and re-export of the source, type-only ones included. */
function importsOf(file) {
	const text = fs.readFileSync(file, 'utf8');
	const found = [];
	const pattern = /^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gms;
	for (let m = pattern.exec(text); m; m = pattern.exec(text)) found.push(resolve(file, m[1]));
	for (const m of text.matchAll(/^\s*import\s+'(\.[^']+)'/gm)) found.push(resolve(file, m[1]));
	return found;
}

/** folder -> folder -> the imports (file: specifier) between them. */
function folderGraph() {
	const graph = new Map();
	for (const file of sourceFiles(SRC)) {
		const from = folderOf(file);
		for (const target of importsOf(file)) {
			const to = folderOf(target);
			if (from === to) continue;
			// actions/<resource> and actions/ itself are one area: the resource uses the area's parts
			if (from.startsWith('actions/') && to === 'actions') continue;
			if (to.startsWith('actions/') && from === 'actions') continue;
			if (!graph.has(from)) graph.set(from, new Map());
			const edges = graph.get(from);
			if (!edges.has(to)) edges.set(to, []);
			edges.get(to).push(path.relative(SRC, file));
		}
	}
	return graph;
}

/** The folders that import each other, directly or through others: `a <-> b`, sorted. */
function cycles(graph) {
	const reach = (start) => {
		const seen = new Set();
		const stack = [start];
		while (stack.length) {
			const at = stack.pop();
			for (const next of graph.get(at)?.keys() ?? [])
				if (!seen.has(next)) {
					seen.add(next);
					stack.push(next);
				}
		}
		return seen;
	};
	const folders = [...graph.keys()];
	const found = new Set();
	for (const a of folders)
		for (const b of reach(a))
			if (a !== b && reach(b).has(a)) found.add([a, b].sort().join(' <-> '));
	return [...found].sort();
}

describe('imports run one way between the folders of nodes/ (issue 35)', () => {
	const graph = folderGraph();

	test('the count sees the imports the layers are made of', () => {
		const count = (from, to) => graph.get(from)?.get(to)?.length ?? 0;
		expect(count('actions/workOrder', 'helpers')).toBeGreaterThan(20);
		expect(count('auth', 'transport')).toBeGreaterThan(0);
		expect(count('.', 'methods')).toBeGreaterThan(0);
		expect(count('actions/workOrder', 'actions/attachment')).toBeGreaterThan(0);
	});

	test('no two folders import each other', () => {
		const found = cycles(graph);
		const detail = found.map((pair) => {
			const [a, b] = pair.split(' <-> ');
			const via = (x, y) => (graph.get(x)?.get(y) ?? []).slice(0, 3).join(', ');
			return `${pair}: ${a} -> ${b} (${via(a, b) || 'through others'}); ${b} -> ${a} (${via(b, a) || 'through others'})`;
		});
		expect(detail.filter((d) => !KNOWN_CYCLES.some((k) => d.startsWith(`${k}:`)))).toEqual([]);
		// a known cycle that is gone must leave the list too
		for (const known of KNOWN_CYCLES) expect(found).toContain(known);
	});

	test('what one area uses lives in it: helpers/ holds only what two or more folders use', () => {
		const users = new Map();
		for (const file of sourceFiles(SRC)) {
			for (const target of importsOf(file)) {
				if (folderOf(target) !== 'helpers') continue;
				const from = folderOf(file);
				if (!users.has(target)) users.set(target, new Set());
				users.get(target).add(from); // a helper other helpers use is shared by their users
			}
		}
		const single = [];
		for (const [target, from] of users)
			if (!from.has('helpers') && from.size === 1)
				single.push(`${path.relative(SRC, target)}: only ${[...from][0]}`);
		expect(single).toEqual([]);
	});
});
