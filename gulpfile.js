'use strict';
/**
 * Copies the non-TypeScript assets n8n's loader needs next to the compiled files:
 * node and credential icons (light and dark SVG/PNG) and the node codex files (*.node.json).
 */
const path = require('path');
const { task, src, dest, parallel } = require('gulp');

function copyAssets(folder) {
	return function copy() {
		return src([`${folder}/**/*.{png,svg}`, `${folder}/**/*.node.json`], { encoding: false }).pipe(
			dest(path.join('dist', folder)),
		);
	};
}

task('build:icons', parallel(copyAssets('nodes'), copyAssets('credentials')));
