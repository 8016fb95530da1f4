import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isToolCall } from './toolCall';
import { isRecord, ownRecord } from './values';

/**
 * The output of the Get operations, as n8n's UX guidelines ask (docs/parameters.md, "Simplify and
 * Output"): a record with more than 10 fields gets **Simplify** (on by default: at most 10 fields,
 * the most used first; off: the record as the service sent it). The node used as an AI agent's
 * tool gets **Output** instead (Simplified, Raw, or Selected Fields, the record's ID always
 * included), so that a model is not handed more than it needs.
 *
 * The compact record keeps the reference's names and nesting (nested objects cut to a few of their
 * fields), so that `$json.Status.Primary` reads the same with Simplify on or off; a field the
 * record does not have is left out, never invented.
 */

/** Top-level field -> the subfields kept of an object there (undefined: the value as it is). */
export type Compact = Record<string, readonly string[] | undefined>;

/** What a Get operation's output offers: the compact fields, the fields to select, the ID. */
export interface OutputShape {
	compact: Compact;
	/** The record's fields an agent may select (the reference's names), sorted by name. */
	fields: readonly string[];
	/** The ID field, always in a Selected Fields output. */
	id: string;
}

/** n8n's Simplify parameter (the guideline's name, default and description); hidden for tools. */
export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	displayOptions: { hide: { '@tool': [true] } },
};

/** The Output parameter of the tool variant (n8n's guideline for AI tool nodes). */
const outputProperty: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: 'simplified',
	options: [
		{ name: 'Raw', value: 'raw', description: 'Send every field the service returns' },
		{ name: 'Selected Fields', value: 'selected', description: 'Send only the fields you select' },
		{
			name: 'Simplified',
			value: 'simplified',
			description: 'Send the 10 most useful fields (as Simplify does)',
		},
	],
	description: 'Which fields of each record the agent gets',
	displayOptions: { show: { '@tool': [true] } },
};

/** Simplify for workflows, Output and its Fields for tools: the parameters of one Get operation. */
export function outputProperties(shape: OutputShape): INodeProperties[] {
	return [
		simplifyProperty,
		outputProperty,
		{
			displayName: 'Fields',
			name: 'outputFields',
			type: 'multiOptions',
			default: [],
			options: [...shape.fields].sort().map((field) => ({ name: field, value: field })),
			description: `The fields to send to the agent; ${shape.id} is always included`,
			displayOptions: { show: { '@tool': [true], output: ['selected'] } },
		},
	];
}

/** How item i's records are to come out: simplified, raw or selected (tools only). */
export function outputMode(ctx: IExecuteFunctions, i: number): 'simplified' | 'raw' | 'selected' {
	if (isToolCall(ctx)) {
		const output = ctx.getNodeParameter(outputProperty.name, i, 'simplified') as unknown;
		return output === 'raw' || output === 'selected' ? output : 'simplified';
	}
	const simplify = ctx.getNodeParameter(simplifyProperty.name, i, true) as unknown;
	return simplify === false || simplify === 'false' ? 'raw' : 'simplified';
}

function own(record: IDataObject, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(record, key);
}

/** The record with only the compact fields (nested objects cut to their listed subfields). */
export function compactRecord(record: IDataObject, fields: Compact): IDataObject {
	const entries: Array<[string, unknown]> = [];
	for (const [key, sub] of Object.entries(fields)) {
		if (!own(record, key)) continue;
		const value = record[key];
		if (sub === undefined || !isRecord(value)) entries.push([key, value]);
		else entries.push([key, ownRecord(sub.filter((s) => own(value, s)).map((s) => [s, value[s]]))]);
	}
	return ownRecord(entries);
}

/**
 * Item i's records as its Simplify (or, for a tool, Output) asks: compact (the default), as sent,
 * or the selected fields with the ID. `applies` false (e.g. the user chose the fields with
 * $select) returns them as they are.
 */
export function shapeOutput(
	ctx: IExecuteFunctions,
	i: number,
	records: IDataObject[],
	shape: OutputShape,
	applies = true,
): IDataObject[] {
	if (!applies) return records;
	const mode = outputMode(ctx, i);
	if (mode === 'raw') return records;
	if (mode === 'simplified') return records.map((record) => compactRecord(record, shape.compact));
	const chosen = ctx.getNodeParameter('outputFields', i, []) as unknown;
	const keys = [shape.id, ...(Array.isArray(chosen) ? chosen.map(String) : [])];
	const compact: Compact = Object.fromEntries(keys.map((key) => [key, undefined]));
	return records.map((record) => compactRecord(record, compact));
}
