'use strict';
/**
 * The words n8n's node panel search finds the node by: its name and its codex aliases.
 */
const { useEnvironment } = require('../helpers');
const { editorView } = require('./editor');

const env = useEnvironment();
const { description } = editorView(env);

describe("node panel search: the codex's aliases", () => {
	test.each([
		'proposal',
		'checklist',
		'approve',
		'reject',
		'facility',
		'facilities',
		'maintenance',
		'inspection',
		'technician',
		'note',
		'work order',
	])('"%s" is a name or an alias of the node', (word) => {
		const d = description();
		const words = [d.displayName, ...(d.codex?.alias ?? [])].map((w) => w.toLowerCase());
		expect(words.some((w) => w.includes(word))).toBe(true);
	});
});
