'use strict';
/**
 * What one poll may spend (trigger/poll.ts pollLimits), without HTTP: an activation is kept short
 * (8 requests, no read started after 10 s); a later poll reads up to 100 window pages and 2,000
 * status pages within n8n's poll budget.
 */
const path = require('path');

const poll = require(
	path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger', 'poll'),
);

describe('poll limits', () => {
	const started = 1_000_000;

	test('activation: 8 requests in all, reads started within 10 s (or the poll budget, if shorter)', () => {
		expect(poll.pollLimits(true, started, 240_000)).toEqual({
			windowRequests: 8,
			totalRequests: 8,
			deadline: started + 10_000,
		});
		expect(poll.pollLimits(true, started, 4_000)).toEqual({
			windowRequests: 8,
			totalRequests: 8,
			deadline: started + 4_000,
		});
	});

	test('a later poll: 100 window requests, 2,100 in all, until the poll budget ends', () => {
		expect(poll.pollLimits(false, started, 240_000)).toEqual({
			windowRequests: 100,
			totalRequests: 2100,
			deadline: started + 240_000,
		});
		expect(poll.MAX_REQUESTS_PER_POLL + poll.MAX_BASELINE_REQUESTS_PER_POLL).toBe(2100);
	});
});
