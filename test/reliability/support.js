'use strict';
/**
 * Shared set-up of the reliability tests (test/reliability/*.test.js). Not a test file itself.
 *
 * Each test file starts its own emulator and n8n-core harness (test/support `setup()`), stores a
 * password-grant credential, and runs "Manual Trigger -> Items -> Work Order Service" through
 * n8n-core's real WorkflowExecute. Faults are injected with the emulator's switches
 * (setFaults / failNext / dropNext) and judged by what the emulator received.
 */
const support = require('../support');

const { CRED_ID, useEnvironment } = support;

/** Fixture IDs used throughout (see test/emulator/fixtures.js). */
const WO = 90000001; // HVAC PM checklist, location with checklists enabled, provider 3001
const PROVIDER = 3001;
const TECH = 4001;
const TEXT_QUESTION = 9103; // Text Entry
const PROPOSAL_OPEN = 61001;

/** Items with `json` only. @param {object[]} jsons */
function items(...jsons) {
	return jsons.map((json) => ({ json }));
}

/** Checklist text-entry answer parameters; the answer comes from the item (`$json.answer`) unless given. */
function checklistParams(extra = {}) {
	return {
		resource: 'checklistResponse',
		operation: 'submit',
		workOrderId: WO,
		questionId: TEXT_QUESTION,
		questionType: 'textEntry',
		answer: '={{ $json.answer }}',
		providerId: PROVIDER,
		technicianId: TECH,
		attempt: 1,
		...extra,
	};
}

/** The CheckListResponseRequest JSON a logged multipart request carried (undefined if none). */
function checklistRequestJson(request) {
	const part = (request.parts ?? []).find((p) => p.name === 'CheckListResponseRequest');
	return part ? JSON.parse(part.data.toString('utf8')) : undefined;
}

/** Arrival time (ms) of a logged request. */
function at(request) {
	return Date.parse(request.time);
}

/** message + description of an error (what n8n shows the user). */
function errorText(error) {
	return `${error?.message ?? ''}\n${error?.description ?? ''}`;
}

module.exports = {
	CRED_ID,
	WO,
	PROVIDER,
	TECH,
	TEXT_QUESTION,
	PROPOSAL_OPEN,
	useEnvironment,
	items,
	checklistParams,
	checklistRequestJson,
	at,
	errorText,
	support,
};
