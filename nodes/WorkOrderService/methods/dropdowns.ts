import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isRecord } from '../helpers/values';
import { WHOLE_LIST, readList } from '../transport/paging';
import { WorkOrderServiceClient } from '../transport/client';

/**
 * Dropdowns fed by the service's lists (service-reference.md section 8): primary and extended
 * statuses (GET /workorders/statuses), categories (GET /workorders/categories), priorities
 * (GET /workorders/priorities). Each option's value is the name the service expects in a request
 * (Status.Primary, Category, Priority are names). Provider users must name the subscriber: the
 * Subscriber ID of the node's Additional Fields goes along when it is set. Trades, providers,
 * locations and assets have their own pickers (placeSearch.ts).
 */

/** The subscriber the lists are read for, when the node names one (Additional Fields > Subscriber ID). */
function subscriberQuery(ctx: ILoadOptionsFunctions): IDataObject {
	const fields = ctx.getCurrentNodeParameter('additionalFields') as IDataObject | undefined;
	const id = isRecord(fields) ? fields.subscriberId : undefined;
	return typeof id === 'number' || (typeof id === 'string' && /^\s*\d+\s*$/.test(id))
		? { subscriberId: Number(id) }
		: {};
}

async function readServiceList(
	ctx: ILoadOptionsFunctions,
	path: string,
	qs: IDataObject = {},
): Promise<IDataObject[]> {
	return await readList(ctx, WorkOrderServiceClient.forNode(ctx), WHOLE_LIST, {
		path,
		qs: { ...subscriberQuery(ctx), ...qs },
	});
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** Options by name, each name once, in the order the service lists them. */
function byName(
	records: IDataObject[],
	describe: (r: IDataObject) => string | undefined = () => undefined,
): INodePropertyOptions[] {
	const seen = new Set<string>();
	const options: INodePropertyOptions[] = [];
	for (const record of records) {
		const name = text(record.Name);
		if (name === undefined || seen.has(name.toLowerCase())) continue;
		seen.add(name.toLowerCase());
		const description = describe(record);
		options.push(description ? { name, value: name, description } : { name, value: name });
	}
	return options;
}

/** Primary statuses: the StatusOption names (OPEN, IN PROGRESS, ...). */
export async function getPrimaryStatuses(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return byName(await readServiceList(this, '/workorders/statuses'), (r) => {
		const extended = Array.isArray(r.Extended)
			? r.Extended.filter((e) => typeof e === 'string')
			: [];
		return extended.length ? `Extended: ${extended.join(', ')}` : undefined;
	});
}

/** The extended statuses under the chosen primary status (none chosen, or an expression: none to offer). */
export async function getExtendedStatuses(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const primary = text(this.getCurrentNodeParameter('primaryStatus'));
	if (primary === undefined || primary.startsWith('=')) return [];
	const statuses = await readServiceList(this, '/workorders/statuses');
	const chosen = statuses.find((s) =>
		[s.Name, s.Id].some((v) => typeof v === 'string' && v.toLowerCase() === primary.toLowerCase()),
	);
	if (!chosen) return [];
	const names = Array.isArray(chosen.Extended)
		? chosen.Extended
		: Array.isArray(chosen.ExtendedStatuses)
			? chosen.ExtendedStatuses.map((e) => (isRecord(e) ? e.Name : undefined))
			: [];
	return byName(names.filter((n): n is string => typeof n === 'string').map((Name) => ({ Name })));
}

/** Categories of the subscriber, by name. */
export async function getCategories(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return byName(
		await readServiceList(this, '/workorders/categories', { sortExpr: 'Name' }),
		(r) => text(r.PrimaryCategoryName) && `Under ${text(r.PrimaryCategoryName)}`,
	);
}

/** Priorities that may be chosen, with the time allowed to arrive. */
export async function getPriorities(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const priorities = (await readServiceList(this, '/workorders/priorities')).filter(
		(p) => p.IsSelectable !== false,
	);
	return byName(priorities, (r) => text(r.Eta) && `Arrival within ${text(r.Eta)}`);
}
