import type { INodeProperties } from 'n8n-workflow';

import * as getQuestions from './getQuestions.operation';

export { getQuestions };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['checklist'] } },
		options: [
			{
				name: 'Get Questions',
				value: 'getQuestions',
				description: "List the questions of a work order's checklist: type, picture rule, options",
				action: 'Get checklist questions',
			},
		],
		default: 'getQuestions',
	},
	...getQuestions.description,
];
