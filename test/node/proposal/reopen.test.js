'use strict';
/**
 * proposal.reopen through n8n-core against the emulator: PUT /proposals/{id}/open (the behaviour
 * all status changes share is in ./statusChange.js) and validation before any request.
 */
const { useEnvironment } = require('../helpers');
const { statusChangeTests, validationTests } = require('./statusChange');

const env = useEnvironment();

describe('proposal.reopen', () => {
	statusChangeTests(env, 'reopen');
});

describe('proposal.reopen: validation before any request', () => {
	validationTests(env, [
		['bad ID (text)', 'reopen', { id: 'P-61001' }, 'proposalId', /positive whole number/],
		[
			'unknown action source',
			'reopen',
			{ actionSource: 'Robot' },
			'additionalFields.actionSource',
			/must be one of Standard, DecisionEngine/,
		],
	]);
});
