import type { IExecuteFunctions } from 'n8n-workflow';

import { invalid, isMimeType, type Field } from './validation';

export interface FileToSend {
	data: Buffer;
	fileName: string;
	mimeType: string;
}

export interface BinaryRules {
	/** Accepts the MIME type, or returns why not. */
	mimeRule?: (mimeType: string) => string | undefined;
	defaultFileName: string;
}

/**
 * Reads a file from the item's binary property, checking before any request that it exists,
 * is not empty and has a usable MIME type.
 */
export async function readBinaryFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: Field,
	propertyName: unknown,
	rules: BinaryRules,
): Promise<FileToSend> {
	const node = ctx.getNode();
	if (typeof propertyName !== 'string' || propertyName.trim() === '') {
		throw invalid(node, itemIndex, field, 'must name the binary property that holds the file', propertyName);
	}
	const name = propertyName.trim();
	const item = ctx.getInputData()[itemIndex];
	const binary = item?.binary?.[name];
	if (!binary) {
		const available = Object.keys(item?.binary ?? {});
		throw invalid(
			node,
			itemIndex,
			field,
			`the input item has no binary property "${name}"`,
			name,
			available.length
				? `Binary properties on this item: ${available.join(', ')}. Set "${field.label}" to one of them.`
				: `This item carries no file at all. Add a node before this one that reads or downloads the file (its binary property name goes in "${field.label}").`,
		);
	}
	const mimeType = (binary.mimeType ?? '').trim();
	if (!isMimeType(mimeType)) {
		throw invalid(node, itemIndex, field, `the file "${binary.fileName ?? name}" has no valid MIME type`, mimeType);
	}
	const why = rules.mimeRule?.(mimeType);
	if (why) throw invalid(node, itemIndex, field, why, mimeType);
	const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
	if (data.length === 0) {
		throw invalid(node, itemIndex, field, `the file "${binary.fileName ?? name}" is empty (0 bytes)`, name);
	}
	let fileName = (binary.fileName ?? '').trim();
	if (fileName === '') {
		fileName = binary.fileExtension ? `${rules.defaultFileName}.${binary.fileExtension}` : rules.defaultFileName;
	}
	return { data, fileName, mimeType };
}
