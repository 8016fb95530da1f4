'use strict';
/**
 * The three nodes as n8n's editor shows them, read from the package as n8n-core's loader loads it
 * (codex, Poll Times and all): one node panel entry per node with its own description, short action
 * names (the default name of a new node), the credential and Authentication first, and dropdowns
 * filled from the service that start without a "not supported" flag. test/editor/ checks the same
 * in the real editor (n8n 2.41.1 in a browser).
 */
const { useEnvironment } = require('../helpers');
const { editorView } = require('./editor');

const env = useEnvironment();
const { description, operations } = editorView(env);

const PKG = 'n8n-nodes-work-order-service';
const typeOf = (name) => env.harness.nodeTypes.getByNameAndVersion(`${PKG}.${name}`, 1).description;
const ACTION = 'workOrderService';
const INSTANT = 'workOrderServiceTrigger';
const POLLING = 'workOrderServicePollingTrigger';

/**
 * What n8n 2.41.1's node panel makes of the package's nodes (editor-ui useActionsGeneration:
 * generateMergedNodesAndActions, triggersCategory; NodeItem's displayName): a trigger whose type
 * name without "Trigger" is a node's type name joins that node's entry, which then shows the
 * trigger's description; a trigger's options parameter labelled Event, Events or Trigger On lists
 * its events (a trigger entry with events and no actions says "We don't have ... actions yet").
 */
function panelEntries(types) {
	const eventsOf = (t) =>
		t.properties.find((p) =>
			['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()),
		)?.options ?? [];
	const entries = types
		.filter((t) => !t.group.includes('trigger'))
		.map((t) => ({
			types: [t.name],
			displayName: t.displayName,
			description: t.description,
			events: [],
			actions: true,
		}));
	for (const trigger of types.filter((t) => t.group.includes('trigger'))) {
		const app = entries.find((e) => e.types[0] === trigger.name.replace('Trigger', ''));
		const events = eventsOf(trigger);
		if (app)
			Object.assign(app, {
				types: [...app.types, trigger.name],
				description: trigger.description,
				events,
			});
		else
			entries.push({
				types: [trigger.name],
				displayName:
					events.length > 1
						? trigger.displayName.replace('Trigger', '').trim()
						: trigger.displayName,
				description: trigger.description,
				events,
				actions: false,
			});
	}
	return entries;
}

describe('node panel: one entry per node, each with its own description', () => {
	test('"Work Order Service" pairs the action node with the instant trigger; the polling trigger is its own entry', () => {
		const entries = panelEntries([typeOf(ACTION), typeOf(INSTANT), typeOf(POLLING)]);
		expect(
			entries.map((e) => [e.displayName, e.types.map((t) => t.replace(`${PKG}.`, ''))]),
		).toEqual([
			['Work Order Service', [ACTION, INSTANT]],
			['Work Order Service Polling Trigger', [POLLING]],
		]);
		const [app, polling] = entries;
		// the instant trigger's 59 events beside the actions
		expect(app.events.map((o) => o.value)).toHaveLength(59);
		// the polling trigger lists no events, so its entry never says "We don't have ... actions yet"
		expect([polling.events, polling.actions]).toEqual([[], false]);
		// each entry's description is its own: the pair's speaks for actions and events, the polling trigger's for polling
		expect(app.description).not.toBe(polling.description);
		expect(app.description).toMatch(/read and update .*start a workflow the moment/i);
		expect(polling.description).toMatch(/^Starts the workflow .*schedule.*no administrator/);
		for (const t of [ACTION, INSTANT, POLLING])
			expect(typeOf(t).description.length).toBeLessThanOrEqual(160);
	});

	test("search words: the entry is found by its actions' and its events' words; the polling trigger by polling words", () => {
		const words = (t) =>
			[typeOf(t).displayName, ...(typeOf(t).codex?.alias ?? [])].map((w) => w.toLowerCase());
		// n8n searches the entry's own node (the action node) only, so the instant trigger's words are there too
		for (const word of ['work order', 'proposal', 'checklist', 'webhook', 'instant', 'emergency'])
			expect([word, words(ACTION).some((w) => w.includes(word))]).toEqual([word, true]);
		for (const word of ['work order', 'poll', 'schedule'])
			expect([word, words(POLLING).some((w) => w.includes(word))]).toEqual([word, true]);
		for (const t of [ACTION, INSTANT, POLLING])
			expect(typeOf(t).codex.categories).toEqual(['Productivity']);
	});
});

describe('action names: short, n8n style; they name new nodes', () => {
	const actions = () => {
		const d = description();
		return operations().map(({ resource, operation }) => {
			const property = d.properties.find(
				(p) => p.name === 'operation' && p.displayOptions.show.resource.includes(resource),
			);
			return property.options.find((o) => o.value === operation);
		});
	};

	test('every action is at most 6 words, a sentence (verb first) without a full stop, and unique', () => {
		const list = actions().map((o) => o.action);
		for (const action of list) {
			expect([action, action.split(' ').length <= 6]).toEqual([action, true]);
			expect(action).toMatch(/^[A-Z][a-z]+ [^\n]*[^.!?:;\s]$/); // a sentence, no full stop
		}
		expect(new Set(list).size).toBe(list.length);
		expect(list).toEqual(
			expect.arrayContaining([
				'Approve a proposal',
				'Get a work order',
				'Reject a proposal',
				'Get many work orders',
				'Create a work order note',
			]),
		);
	});

	test("what an action name no longer says, the operation's description in the dropdown does (the refusals)", () => {
		const byValue = Object.fromEntries(actions().map((o) => [o.action, o.description]));
		expect(byValue['Approve a proposal']).toMatch(/invoiced.*missing.*approval limit/);
		expect(byValue['Check in to a work order']).toMatch(/another provider/);
		expect(byValue['Get a work order note']).toMatch(/string of digits/);
		expect(byValue['Add an attachment to a note']).toMatch(/AI tool call carries no file/);
	});
});

describe("parameter order: the credential and Authentication first, as in n8n's nodes", () => {
	test.each([ACTION, INSTANT, POLLING])(
		'%s: Authentication is the first parameter (n8n shows the credential beside it)',
		(name) => {
			expect(typeOf(name).properties[0].name).toBe('authentication');
		},
	);

	test('the polling trigger: Poll Times, which n8n adds in front, comes right after Authentication', () => {
		expect(
			typeOf(POLLING)
				.properties.slice(0, 3)
				.map((p) => p.name),
		).toEqual(['authentication', 'pollTimes', 'event']);
		expect(typeOf(POLLING).properties.filter((p) => p.name === 'pollTimes')).toHaveLength(1);
		// and the description n8n serves to the editor keeps that order
		expect(
			JSON.parse(JSON.stringify(typeOf(POLLING)))
				.properties.slice(0, 2)
				.map((p) => p.name),
		).toEqual(['authentication', 'pollTimes']);
	});
});

describe('dropdowns filled from the service start without a red flag', () => {
	/** Every options parameter whose options the service provides, with its path. */
	function serviceDropdowns() {
		const found = [];
		const walk = (props, path) => {
			for (const p of props) {
				const here = path ? `${path}.${p.name}` : p.name;
				if (
					['options', 'multiOptions'].includes(p.type) &&
					(p.typeOptions?.loadOptionsMethod || p.typeOptions?.loadOptions)
				)
					found.push({ path: here, p });
				if (Array.isArray(p.options) && p.options.some((o) => o && o.type)) walk(p.options, here);
				if (Array.isArray(p.options))
					for (const o of p.options)
						if (o && Array.isArray(o.values)) walk(o.values, `${here}.${o.name}`);
			}
		};
		for (const t of [ACTION, INSTANT, POLLING]) walk(typeOf(t).properties, '');
		return found;
	}

	test('Rejection Reason is one of them', () => {
		expect(serviceDropdowns().map((d) => d.path)).toContain('additionalFields.rejectReasonCodeId');
	});

	test('each starts empty, and n8n\'s editor skips its "The value \\"\\" is not supported!" check for it (allowArbitraryValues)', () => {
		// n8n 2.41.1 editor-ui ParameterInput: an options value that is not among the loaded options is
		// flagged unless shouldSkipParamValidation(), i.e. the parameter has allowArbitraryValues.
		for (const { path, p } of serviceDropdowns()) {
			expect([path, p.allowArbitraryValues]).toEqual([path, true]);
			expect([path, p.default]).toEqual([path, p.type === 'multiOptions' ? [] : '']);
		}
	});
});
