import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { invalid, isMimeType, type Field } from './validation';

/** A file of exactly `size` bytes that `copyTo` writes into `target` at `offset` (resolving to the bytes written): what transport/multipart.ts sends. */
export interface FileSource {
	size: number;
	copyTo(target: Buffer, offset: number): Promise<number>;
}

export interface FileToSend {
	data: FileSource;
	fileName: string;
	mimeType: string;
}

/**
 * The file's bytes without loading them first: n8n keeps binary data either inline (base64 in the
 * item) or in a binary data store (an `id`). Either way the bytes are written once, straight into
 * the request body, so a 100 MB photo costs 100 MB, not 200.
 */
async function fileSource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	binary: IBinaryData,
): Promise<FileSource> {
	if (binary.id) {
		const id = binary.id;
		const { fileSize } = await ctx.helpers.getBinaryMetadata(id);
		return {
			size: fileSize,
			copyTo: async (target, offset) => {
				let written = 0;
				const stream = await ctx.helpers.getBinaryStream(id);
				for await (const chunk of stream) {
					const bytes = chunk as Buffer;
					if (written + bytes.length > fileSize) return written + bytes.length;
					written += bytes.copy(target, offset + written);
				}
				return written;
			},
		};
	}
	const base64 = binary.data ?? '';
	const size = Buffer.byteLength(base64, 'base64');
	const decodedExactly = (target: Buffer, offset: number) =>
		target.write(base64, offset, size, 'base64');
	return {
		size,
		copyTo: async (target, offset) => {
			const written = decodedExactly(target, offset);
			if (written === size) return written;
			// Unusual base64 (line breaks, ...): let n8n decode it.
			const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
			return data.length === size ? data.copy(target, offset) : data.length;
		},
	};
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
		throw invalid(
			node,
			itemIndex,
			field,
			'must name the binary property that holds the file',
			propertyName,
		);
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
		throw invalid(
			node,
			itemIndex,
			field,
			`the file "${binary.fileName ?? name}" has no valid MIME type`,
			mimeType,
		);
	}
	const why = rules.mimeRule?.(mimeType);
	if (why) throw invalid(node, itemIndex, field, why, mimeType);
	const data = await fileSource(ctx, itemIndex, name, binary);
	if (data.size === 0) {
		throw invalid(
			node,
			itemIndex,
			field,
			`the file "${binary.fileName ?? name}" is empty (0 bytes)`,
			name,
		);
	}
	let fileName = (binary.fileName ?? '').trim();
	if (fileName === '') {
		fileName = binary.fileExtension
			? `${rules.defaultFileName}.${binary.fileExtension}`
			: rules.defaultFileName;
	}
	return { data, fileName, mimeType };
}
