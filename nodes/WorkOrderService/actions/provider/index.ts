import { getManyOnlyDescription } from '../wholeList';

import * as getAll from './getAll.operation';

export { getAll };

export const description = getManyOnlyDescription(
	'provider',
	{
		description:
			'List the providers (service companies) of a trade, with their Do Not Dispatch flag; a trade the subscriber does not have gives none',
		action: 'Get many providers',
	},
	getAll,
);
