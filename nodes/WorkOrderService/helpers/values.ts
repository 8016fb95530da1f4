import type { IDataObject } from 'n8n-workflow';

/**
 * Readers of loosely shaped values, one of each for the whole package: a comma-separated list as a
 * user types it, a plain object, a field whose name the service writes in varying case, an answer's
 * record.
 */

/** A comma-separated list (or an array of values, joined first): entries trimmed, empty ones left out. */
export function commaList(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const text = Array.isArray(value) ? value.map(String).join(',') : String(value);
	return text
		.split(',')
		.map((v) => v.trim())
		.filter((v) => v !== '');
}

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The field `name` of an object, its name compared without regard to case (the first that matches). */
export function fieldIgnoringCase(record: unknown, name: string): unknown {
	if (record === null || typeof record !== 'object') return undefined;
	const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
	return key === undefined ? undefined : (record as Record<string, unknown>)[key];
}

/** A plain object with the same own properties; no key (`__proto__` included) can touch a prototype. */
export function ownRecord(entries: Iterable<[string, unknown]>): IDataObject {
	const record: IDataObject = {};
	for (const [key, value] of entries)
		Object.defineProperty(record, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	return record;
}

/** The body as one record: an object as it came, anything else wrapped as `{ value }`, nothing as undefined. */
export function asRecord(body: unknown): IDataObject | undefined {
	if (body === undefined) return undefined;
	return body !== null && typeof body === 'object' && !Array.isArray(body)
		? (body as IDataObject)
		: { value: body as string };
}

/** A single OData entity without its `@odata.*` annotations (keys copied as own properties). */
export function withoutODataAnnotations(body: unknown): IDataObject {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return { value: body as string };
	return ownRecord(
		Object.entries(body as IDataObject).filter(([key]) => !key.startsWith('@odata.')),
	);
}

/** An OData string literal: `'text'` with its quotes doubled. */
export function odataString(value: string): string {
	return `'${value.replace(/'/g, "''")}'`;
}
