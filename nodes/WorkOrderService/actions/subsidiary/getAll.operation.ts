import { simpleListOperation } from '../common/simpleList';

export const { description, execute } = simpleListOperation('subsidiary', '/subscribers/current/subsidiaries');
