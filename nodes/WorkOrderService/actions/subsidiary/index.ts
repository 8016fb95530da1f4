import { wholeListDescription } from '../wholeList';

import * as getAll from './getAll.operation';

export { getAll };

export const description = wholeListDescription('subsidiary', getAll);
