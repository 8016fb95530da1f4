// Lint with n8n's own community-node rules: the same config `@n8n/node-cli/eslint` exports
// (what `n8n-node lint` runs), plus the stricter bits of the verification scanner
// (@n8n/scan-community-package): .js/.json under nodes/ and credentials/ are scanned too,
// and eslint-disable comments are ignored. Only the shipped sources are linted here:
// tests, fixtures, examples and the emulator live outside nodes/ and credentials/.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { globalIgnores } from 'eslint/config';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const communityRecommended = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	globalIgnores(['dist/**', 'node_modules/**', 'coverage/**', 'test/**', 'examples/**', 'bench/**']),
	// The scanner lints with allowInlineConfig: false, so disable comments must not hide anything here either.
	{ linterOptions: { noInlineConfig: true } },
	{
		files: ['**/*.ts'],
		extends: [
			js.configs.recommended,
			tseslint.configs.recommended,
			communityRecommended,
		],
		rules: {
			'prefer-spread': 'off',
			'no-console': 'error',
		},
	},
	{
		plugins: { 'n8n-nodes-base': n8nNodesBase },
	},
	{
		files: ['package.json'],
		extends: [communityRecommended],
		rules: { ...n8nNodesBase.configs.community.rules },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	// Scanner parity: it also runs the community rules (and no-console) on any .js/.json
	// that sits under nodes/ or credentials/.
	{
		files: ['{nodes,credentials}/**/*.{js,json}'],
		extends: [communityRecommended],
		rules: { 'no-console': 'error' },
		languageOptions: { parser: tseslint.parser },
	},
);
