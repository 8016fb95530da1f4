'use strict';
/**
 * The start that the real-n8n benchmark workflows share: Manual Trigger -> Edit Fields (raw JSON:
 * `{ list: [1..items] }`) -> Split Out (one item per number). `listWorkflow` adds the node under
 * test after Split Out (or nothing: the start-up baseline).
 */

/** uuid(n) of a benchmark node: `<prefix>-0000-4000-8000-<n, 12 digits>`. */
function uuidFor(prefix) {
	return (n) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

function listStart(items, uuid) {
	return {
		nodes: [
			{
				id: uuid(1),
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: uuid(2),
				name: 'Make List',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: {
					mode: 'raw',
					jsonOutput: JSON.stringify({ list: Array.from({ length: items }, (_, i) => i + 1) }),
					options: {},
				},
			},
			{
				id: uuid(3),
				name: 'Split Out',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [440, 0],
				parameters: { fieldToSplitOut: 'list', options: {} },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Make List', type: 'main', index: 0 }]] },
			'Make List': { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] },
		},
	};
}

/** A workflow: the list start, then `last` (a node) after Split Out when given. */
function listWorkflow({ id, name, items, uuid, last }) {
	const start = listStart(items, uuid);
	return {
		id,
		name,
		nodes: last ? [...start.nodes, last] : start.nodes,
		connections: last
			? {
					...start.connections,
					'Split Out': { main: [[{ node: last.name, type: 'main', index: 0 }]] },
				}
			: start.connections,
		settings: { executionOrder: 'v1' },
	};
}

module.exports = { uuidFor, listWorkflow };
