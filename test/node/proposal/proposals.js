'use strict';
/**
 * What the proposal read tests share (not a test file): the proposals as the emulator served them
 * (parsed as the node parses: integers beyond 2^53 as decimal strings), the compact fields of
 * Simplify, and a run with the workflow's time zone set.
 */
const { parse } = require('../../emulator/lossless-json');
const { parsedShape } = require('../workOrderNote/notes');
const support = require('../../support');

/** The JSON body the emulator sent for a logged request, as the node reads it. */
function served(request) {
	return parsedShape(parse(request.responseBody));
}

/**
 * The compact fields of Simplify (actions/proposal/simplify.ts), written out: the test's own list,
 * in order. n8n's UX guidelines: at most 10 fields, the most used first.
 */
const COMPACT = {
	Id: true,
	Number: true,
	Status: ['Primary', 'Extended', 'ModifiedDate_dto', 'ModifiedBy'],
	Amount: true,
	Currency: ['AlphabeticalCode'],
	Description: true,
	WorkOrder: ['Id', 'Number', 'PurchaseNumber'],
	Location: ['Id', 'StoreId', 'Name'],
	Provider: ['Id', 'Name'],
	UpdatedDateDto: true,
};

/** A served proposal cut to the compact fields, written without the node's code. */
function compactOf(proposal) {
	const out = {};
	for (const [key, keep] of Object.entries(COMPACT)) {
		const value = proposal[key];
		if (keep === true || value === null) out[key] = value;
		else out[key] = Object.fromEntries(keep.filter((k) => k in value).map((k) => [k, value[k]]));
	}
	return out;
}

/** Runs the node with the workflow's time zone set (what getTimezone() gives the node). */
async function runInZone(env, timezone, spec) {
	env.emulator.clearRequests();
	const workflow = support.workflow({ credentialId: support.CRED_ID, ...spec });
	workflow.settings = { ...workflow.settings, timezone };
	const result = await env.harness.run(workflow, { timeoutMs: 60_000 });
	return {
		result,
		output: result.outputs[support.NODE_NAME] ?? [],
		error: result.error,
		api: support.apiRequests(env.emulator),
	};
}

/** The proposals a subscriber user of subscriber 1001 sees in lists: its own, not void, by Id. */
function listedProposals(env, test = () => true) {
	return Object.values(env.emulator.state.proposals)
		.filter((p) => p.SubscriberId === 1001 && p.Status !== 'Voided' && test(p))
		.map((p) => p.Id)
		.sort((a, b) => a - b);
}

module.exports = { served, COMPACT, compactOf, runInZone, listedProposals };
