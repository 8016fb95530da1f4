import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether the node runs as a tool. n8n gives the tool variant the node type `<type>Tool` and runs
 * it under that type on every path (AI Agent v3's engine requests, where the context's
 * `isToolExecution()` is false; the agents' and the MCP Server Trigger's tool invocations, in
 * n8n 1.x and 2.x); n8n's own `@tool` display option tests the same suffix.
 */
export function isToolCall(ctx: Pick<IExecuteFunctions, 'getNode'>): boolean {
	return ctx.getNode().type.endsWith('Tool');
}
