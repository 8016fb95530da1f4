import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../transport/client';

/**
 * "Request Options", one description for both nodes; `readSettings` (transport/client.ts) reads them
 * for the client: how it paces, retries and times out its requests. The action node offers them all, in
 * words about items; the trigger offers all but Concurrency, in words about polls.
 */

const options: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		default: DEFAULT_CONCURRENCY,
		typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
		description:
			"How many requests of this execution may be in flight at once (1 = one after another). Executions that use the same app at the same time in one n8n process share the service's limit: when it throttles, all of them wait and then keep to the pace it allows.",
	},
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		default: 3,
		typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
		description:
			'How many times a request is sent again after a failure: one that never reached the service (refused, TLS, connect timeout), a read or status change that failed (5xx, dropped), or a request the service throttled on its own. A POST that may have been processed is never sent again.',
	},
	{
		displayName: 'Max Wait (Seconds)',
		name: 'maxWaitSeconds',
		type: 'number',
		default: 120,
		typeOptions: { minValue: 0 },
		description:
			'Longest total time one request may wait for the service to accept again (throttling pauses, backoff between retries); waiting for its turn at the learned pace does not count',
	},
	{
		displayName: 'Requests Per Minute',
		name: 'requestsPerMinute',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0 },
		description:
			'Spread requests so that at most this many start per minute (0 = no pacing), shared by the executions of this n8n process that use the same app. Production allows about 300 per minute per app, the sandbox about 40: with several workers, give each its part.',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		default: 60,
		typeOptions: { minValue: 1 },
		description:
			'How long to wait for the service to answer one request (a token request waits up to 30 s). A request that got no answer in time is not sent again.',
	},
];

/** The trigger's words for the options it offers (all but Concurrency). */
const pollDescriptions: Record<string, string> = {
	maxRetries:
		'How many times a throttled (429/503), unsent (refused, connect timeout) or failed (5xx, network) read is sent again before the poll fails. A failed poll keeps its place: the next poll reads the same changes again.',
	maxWaitSeconds:
		'Longest total time one read may wait for the service to accept again (throttling pauses, backoff between retries)',
	requestsPerMinute:
		'Spread the reads of one poll so that at most this many start per minute (0 = no pacing). The sandbox allows about 40 per minute.',
	timeoutSeconds: 'How long to wait for the service to answer one request',
};

/** The Request Options collection of the action node, or of the trigger. */
export function requestOptionsProperty(node: 'action' | 'trigger'): INodeProperties {
	return {
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options:
			node === 'action'
				? options
				: options
						.filter((option) => option.name in pollDescriptions)
						.map((option) => ({ ...option, description: pollDescriptions[option.name] })),
	};
}
