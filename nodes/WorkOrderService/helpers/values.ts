import type { IDataObject } from 'n8n-workflow';

/**
 * Readers of loosely shaped values, one of each for the whole package: a comma-separated list as a
 * user types it, a plain object, a field whose name the service writes in varying case.
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
