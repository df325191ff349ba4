// Labrador's own .gitignore templates, written for it: short lists of what each toolchain leaves in a
// work tree. "Languages" first, then "Global" (editors and operating systems), as GitLab 8.13's picker
// grouped them; each group sorted by name.
import type { FileTemplate, TemplateGroup } from './file-templates.ts';

const LANGUAGES: FileTemplate[] = [
  {
    name: 'C',
    content: `# Objects, libraries and programs the compiler leaves
*.o
*.obj
*.a
*.so
*.so.*
*.dylib
*.dll
*.exe
*.out

# Dependency files and debug symbols
*.d
*.dSYM/
*.pdb
`,
  },
  {
    name: 'Go',
    content: `# Built programs and test binaries
/bin/
*.exe
*.test

# Coverage profiles
*.out
coverage.html

# A vendored module cache, when the project keeps one outside git
/vendor/

# Local workspace files
go.work
go.work.sum
`,
  },
  {
    name: 'Java',
    content: `# Compiled classes and packages
*.class
*.jar
*.war
*.ear

# Build output of Maven and Gradle
/target/
/build/
.gradle/

# Crash logs of the JVM
hs_err_pid*.log
`,
  },
  {
    name: 'Node',
    content: `# Installed packages
node_modules/

# Build output and caches
dist/
build/
.cache/
coverage/
*.tsbuildinfo

# Logs the package managers write
npm-debug.log*
yarn-error.log*

# Local settings that hold secrets
.env
.env.local
`,
  },
  {
    name: 'Python',
    content: `# Byte code
__pycache__/
*.py[cod]

# Virtual environments
.venv/
venv/

# Packaging output
build/
dist/
*.egg-info/

# Test and type-check caches
.pytest_cache/
.mypy_cache/
.coverage
htmlcov/

# Local settings that hold secrets
.env
`,
  },
  {
    name: 'Ruby',
    content: `# Installed gems and Bundler's settings
/.bundle/
/vendor/bundle/

# Built gems and generated documentation
*.gem
/pkg/
/doc/
/.yardoc/

# Test output
/coverage/
/spec/examples.txt

# Temporary files and logs
/tmp/
/log/*.log
`,
  },
  {
    name: 'Rust',
    content: `# Cargo's build output
/target/

# Backup files rustfmt leaves
**/*.rs.bk

# Uncomment for a library, whose users pick their own dependency versions
# Cargo.lock
`,
  },
];

const GLOBAL: FileTemplate[] = [
  {
    name: 'Emacs',
    content: `# Backups and auto-saves
*~
\\#*\\#
.\\#*

# Byte-compiled Lisp and desktop state
*.elc
.emacs.desktop
`,
  },
  {
    name: 'JetBrains',
    content: `# Project settings of IntelliJ IDEA, PyCharm, GoLand and the rest
.idea/
*.iml
*.iws
out/
`,
  },
  {
    name: 'Linux',
    content: `# Editor backups and files left by removed-but-open handles
*~
.nfs*

# Directory listings some desktops write
.directory
.Trash-*
`,
  },
  {
    name: 'macOS',
    content: `# Finder's folder settings and resource forks
.DS_Store
._*

# Volume metadata
.Spotlight-V100
.Trashes
.fseventsd
`,
  },
  {
    name: 'Vim',
    content: `# Swap, undo and backup files
[._]*.s[a-v][a-z]
[._]*.sw[a-p]
*.un~
*~

# Session and tags files
Session.vim
tags
`,
  },
  {
    name: 'VisualStudioCode',
    content: `# Workspace settings, except the ones a team shares
.vscode/*
!.vscode/settings.json
!.vscode/tasks.json
!.vscode/launch.json
!.vscode/extensions.json
`,
  },
  {
    name: 'Windows',
    content: `# Thumbnail caches and folder settings Explorer writes
Thumbs.db
ehthumbs.db
Desktop.ini

# The recycle bin of removable drives
$RECYCLE.BIN/

# Shortcuts
*.lnk
`,
  },
];

export const GITIGNORE_TEMPLATES: readonly TemplateGroup[] = [
  { label: 'Languages', templates: LANGUAGES },
  { label: 'Global', templates: GLOBAL },
];
