import { parsePatch } from './parse.js';
/**
 * Renders a one-file patch (a structured patch as `structuredPatch` returns it, or a patch string) as two
 * columns: the old text on the left, the new on the right. A row marks a change with `|`, a removed line
 * with `<` and an added line with `>`; hunk headers are kept.
 */
export function sideBySide(patch, options = {}) {
    var _a;
    const width = (_a = options.width) !== null && _a !== void 0 ? _a : 40;
    const structured = typeof patch === 'string' ? parsePatch(patch) : patch;
    if (Array.isArray(structured) && structured.length > 1) {
        throw new Error('sideBySide takes a patch of one file');
    }
    const file = Array.isArray(structured) ? structured[0] : structured;
    const cell = (text) => {
        const shown = text.replace(/\t/g, '    ');
        return shown.length > width ? shown.slice(0, width - 1) + '…' : shown.padEnd(width);
    };
    const rows = [];
    for (const hunk of file.hunks) {
        rows.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
        let removed = [];
        let added = [];
        const flush = () => {
            for (let i = 0; i < Math.max(removed.length, added.length); i++) {
                const left = removed[i], right = added[i];
                const mark = left !== undefined && right !== undefined ? '|' : left !== undefined ? '<' : '>';
                rows.push(`${cell(left !== null && left !== void 0 ? left : '')} ${mark} ${right !== null && right !== void 0 ? right : ''}`.trimEnd());
            }
            removed = [];
            added = [];
        };
        for (const line of hunk.lines) {
            if (line.startsWith('-')) {
                removed.push(line.slice(1));
            }
            else if (line.startsWith('+')) {
                added.push(line.slice(1));
            }
            else {
                flush();
                rows.push(`${cell(line.slice(1))}   ${line.slice(1)}`.trimEnd());
            }
        }
        flush();
    }
    return rows.join('\n');
}
