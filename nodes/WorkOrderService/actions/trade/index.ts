import { getManyOnlyDescription } from '../wholeList';

import * as getAll from './getAll.operation';

export { getAll };

export const description = getManyOnlyDescription(
	'trade',
	{
		description:
			"List the subscriber's trades, or the trades at one location (their names go into a work order's Trade). Refused (400) for a location the user may not see.",
		action: 'Get many trades',
	},
	getAll,
);
