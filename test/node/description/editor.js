'use strict';
/**
 * The node's description as n8n's editor reads it (not a test file), for the tests in this folder:
 * n8n-workflow's own helpers on the package as n8n-core's PackageDirectoryLoader loads it (codex
 * included). test/editor/ drives the real editor in a browser; these keep the same rules in the
 * fast suite.
 */
const { NodeHelpers } = require('n8n-workflow');

/** The description helpers bound to a test file's environment (support.useEnvironment()). */
function editorView(env) {
	const description = () =>
		env.harness.nodeTypes.getByNameAndVersion(env.harness.nodeType('workOrderService'), 1)
			.description;

	/** Every resource/operation (selector questions for the checklist, to show Option ID). */
	function operations() {
		// read at definition time, before the harness exists: the built node class itself
		const {
			WorkOrderService,
		} = require('../../../dist/nodes/WorkOrderService/WorkOrderService.node.js');
		const d = new WorkOrderService().description;
		const out = [];
		for (const resource of d.properties
			.find((p) => p.name === 'resource')
			.options.map((o) => o.value)) {
			const operation = d.properties.find(
				(p) => p.name === 'operation' && p.displayOptions.show.resource.includes(resource),
			);
			for (const { value } of operation.options) {
				out.push({
					resource,
					operation: value,
					...(resource === 'checklistResponse' ? { questionType: 'selector' } : {}),
				});
			}
		}
		return out;
	}

	/** The node's parameters as the editor creates them for a new node, then for the chosen operation. */
	function freshParameters(chosen) {
		const d = description();
		const node = { name: 'Work Order Service', type: d.name, typeVersion: 1, parameters: {} };
		return NodeHelpers.getNodeParameters(d.properties, { ...chosen }, true, false, node, d);
	}

	/** Parameters shown for the values (top level and inside collections), with their paths. */
	function shown(parameters) {
		const d = description();
		const node = { name: 'Work Order Service', type: d.name, typeVersion: 1, parameters };
		const list = [];
		for (const p of d.properties) {
			if (!NodeHelpers.displayParameter(parameters, p, node, d)) continue;
			list.push({ path: p.name, p });
			if (p.type === 'collection')
				for (const o of p.options)
					list.push({ path: `${p.name}.${o.name}`, p: o, inCollection: true });
		}
		return list;
	}

	/**
	 * A field where an ID is typed, by its label ("... ID") or its name ("...Id", labelled as the
	 * shared name's label, e.g. Checklist Response's Provider): a dropdown such as "Rejection Reason
	 * Name or ID" is not one; a From List / By ID locator is.
	 */
	const isId = (p) =>
		((/\bIDs?\b/.test(p.displayName) || /Ids?$/.test(p.name)) && p.type !== 'options') ||
		p.type === 'resourceLocator';

	return { description, operations, freshParameters, shown, isId };
}

module.exports = { editorView };
