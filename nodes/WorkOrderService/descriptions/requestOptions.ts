import type { INodeProperties } from 'n8n-workflow';

/**
 * "Request Options", one description for both nodes: how the client paces, retries and times out
 * its requests (transport/client.ts readSettings reads them). The action node offers them all, in
 * words about items; the trigger offers all but Concurrency, in words about polls.
 */

const options: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		default: 20,
		typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
		description:
			'How many requests may be in flight at once (1 = one after another). When the service throttles, the node lowers this on its own and every request waits as long as the service asks.',
	},
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		default: 3,
		typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
		description:
			'How many times a throttled request (429/503 with Retry-After) is sent again, and a failed read or status change (5xx, network). A POST that may have been processed is never sent again.',
	},
	{
		displayName: 'Max Wait (Seconds)',
		name: 'maxWaitSeconds',
		type: 'number',
		default: 120,
		typeOptions: { minValue: 0 },
		description: 'Longest total time one item may spend waiting between retries',
	},
	{
		displayName: 'Requests Per Minute',
		name: 'requestsPerMinute',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0 },
		description:
			'Spread requests so that at most this many start per minute (0 = no pacing). Production allows about 300 per minute per app, the sandbox about 40.',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		default: 60,
		typeOptions: { minValue: 1 },
		description:
			'How long to wait for the service to answer one request (token requests: at most 30 s). A request that got no answer in time is not sent again.',
	},
];

/** The trigger's words for the options it offers (all but Concurrency). */
const pollDescriptions: Record<string, string> = {
	maxRetries:
		'How many times a throttled (429/503 with Retry-After) or failed (5xx, network) read is sent again before the poll fails. A failed poll keeps its place: the next poll reads the same changes again.',
	maxWaitSeconds: 'Longest total time one read may spend waiting between retries',
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
