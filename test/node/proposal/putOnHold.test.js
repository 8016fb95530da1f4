'use strict';
/**
 * proposal.putOnHold through n8n-core against the emulator: PUT /proposals/{id}/onhold (the
 * behaviour all status changes share is in ./statusChange.js) and validation before any request.
 */
const { useEnvironment } = require('../helpers');
const { statusChangeTests, validationTests } = require('./statusChange');

const env = useEnvironment();

describe('proposal.putOnHold', () => {
	statusChangeTests(env, 'putOnHold');
});

describe('proposal.putOnHold: validation before any request', () => {
	validationTests(env, [
		['bad ID (fraction)', 'putOnHold', { id: 61001.5 }, 'proposalId', /positive whole number/],
		[
			'e-mail without a domain',
			'putOnHold',
			{ userEmail: 'manager@' },
			'additionalFields.userEmail',
			/e-mail address/,
		],
	]);
});
