// `npm run lint` part: lists exported values (functions, classes, constants, enums) of src/ that no other
// file imports (in src/, test/, bench/ or scripts/) and fails when there is one. Exported types and
// interfaces are left out: they name the shapes of exported functions. Read with the TypeScript parser;
// every import here names its file with its extension, so a relative specifier is the file itself.
// A dynamic import() or `import * as` counts as using every export of its target.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['src', 'test', 'bench', 'scripts'];

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(full);
    return /\.(ts|tsx|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const files = FOLDERS.flatMap((folder) => walk(path.join(root, folder)));
/** file -> exported value names */
const exported = new Map();
/** file -> names imported from it by other files ('*' for all) */
const used = new Map();
const use = (file, name) => {
  if (!used.has(file)) used.set(file, new Set());
  used.get(file).add(name);
};
const hasExport = (node) => ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

for (const file of files) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = new Set();
  const target = (specifier) =>
    specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : undefined;
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const to = node.moduleSpecifier && target(node.moduleSpecifier.text);
      if (to) {
        const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
        if (ts.isExportDeclaration(node)) {
          if (!node.exportClause || !ts.isNamedExports(node.exportClause)) use(to, '*');
          else for (const e of node.exportClause.elements) use(to, (e.propertyName ?? e.name).text);
        } else if (clause) {
          if (clause.name) use(to, 'default');
          const bindings = clause.namedBindings;
          if (bindings && ts.isNamespaceImport(bindings)) use(to, '*');
          else if (bindings) for (const e of bindings.elements) use(to, (e.propertyName ?? e.name).text);
        }
      } else if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
        if (!node.isTypeOnly)
          for (const e of node.exportClause.elements) if (!e.isTypeOnly) names.add(e.name.text);
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      const to = arg && ts.isStringLiteralLike(arg) ? target(arg.text) : undefined;
      if (to) use(to, '*');
    } else if (hasExport(node)) {
      if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isEnumDeclaration(node)) {
        if (node.name) names.add(node.name.text);
      } else if (ts.isVariableStatement(node)) {
        for (const d of node.declarationList.declarations)
          if (ts.isIdentifier(d.name)) names.add(d.name.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  exported.set(file, names);
}

const findings = [];
for (const [file, names] of exported) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (!rel.startsWith('src/')) continue;
  const seen = used.get(file) ?? new Set();
  if (seen.has('*')) continue;
  for (const name of names) if (!seen.has(name)) findings.push(`${rel}: ${name}`);
}
findings.sort();

for (const line of findings)
  console.error(`unused export (no other file imports it; un-export or remove it): ${line}`);
console.log(`unused exports: ${findings.length} in ${files.length} files read`);
process.exit(findings.length > 0 ? 1 : 0);
