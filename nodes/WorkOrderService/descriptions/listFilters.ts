import type { INodeProperties } from 'n8n-workflow';

/**
 * The comma-separated list filters both triggers offer (the polling trigger's Filters, the instant
 * trigger's Rules): one definition of each field; each trigger says in its own words what it
 * narrows (work orders, or the records a webhook notifies about).
 */

const LIST_FILTERS = {
	categories: { displayName: 'Categories', placeholder: 'REPAIR, PREVENTIVE MAINTENANCE' },
	trades: { displayName: 'Trades', placeholder: 'HVAC, PLUMBING' },
} as const;

export function listFilterOption(
	name: keyof typeof LIST_FILTERS,
	description: string,
): INodeProperties {
	const { displayName, placeholder } = LIST_FILTERS[name];
	return { displayName, name, type: 'string', default: '', placeholder, description };
}
