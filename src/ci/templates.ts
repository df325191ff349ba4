// The .gitlab-ci.yml templates of this server, one library for both of their uses: the file picker and
// the templates API (`/gitlab_ci_ymls`) list them, and `include: template:` includes them by GitLab's
// file names — `<name>.gitlab-ci.yml` for the general ones, `Pages/<name>.gitlab-ci.yml` for the Pages
// ones, `Workflows/<name>.gitlab-ci.yml` for the two workflow templates, which the picker does not list.
// GitLab's own template library is not copied: each text here is written for Labrador, from what the
// template is documented to do.
interface CiTemplate {
  name: string;
  content: string;
}

// The picker's: one small pipeline per toolchain ("General"), then static sites published with Pages
// ("Pages"), as GitLab 8.13's picker grouped them. Each starts with a line saying it is a starting point,
// as 8.13's did.
const HEADER = '# A template: adjust the image, the commands and the branches to your project.\n';

const GENERAL: CiTemplate[] = [
  {
    name: 'Docker',
    content: `${HEADER}# Builds the image from the Dockerfile at the root and pushes it to the project's registry.
image: docker:latest

services:
  - docker:dind

stages:
  - build

build-image:
  stage: build
  script:
    - docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" "$CI_REGISTRY"
    - docker build --pull -t "$CI_REGISTRY_IMAGE:$CI_COMMIT_REF_SLUG" .
    - docker push "$CI_REGISTRY_IMAGE:$CI_COMMIT_REF_SLUG"
`,
  },
  {
    name: 'Go',
    content: `${HEADER}image: golang:latest

stages:
  - test
  - build

vet-and-test:
  stage: test
  script:
    - go vet ./...
    - go test -race ./...

compile:
  stage: build
  script:
    - mkdir -p bin
    - go build -o bin/ ./...
  artifacts:
    paths:
      - bin/
`,
  },
  {
    name: 'Maven',
    content: `${HEADER}image: maven:3-eclipse-temurin-21

variables:
  MAVEN_OPTS: "-Dmaven.repo.local=.m2/repository"

# Downloaded dependencies are kept between jobs of the same branch.
cache:
  key: "$CI_COMMIT_REF_SLUG"
  paths:
    - .m2/repository/

stages:
  - test
  - package

verify:
  stage: test
  script:
    - mvn --batch-mode verify

package:
  stage: package
  script:
    - mvn --batch-mode package -DskipTests
  artifacts:
    paths:
      - target/*.jar
`,
  },
  {
    name: 'Nodejs',
    content: `${HEADER}image: node:lts

# npm's download cache is kept between jobs of the same branch.
cache:
  key: "$CI_COMMIT_REF_SLUG"
  paths:
    - .npm/

before_script:
  - npm ci --cache .npm --prefer-offline

lint:
  script:
    - npm run lint --if-present

test:
  script:
    - npm test
`,
  },
  {
    name: 'Python',
    content: `${HEADER}image: python:3

variables:
  PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"

cache:
  paths:
    - .cache/pip

before_script:
  - python -m venv .venv
  - . .venv/bin/activate
  - pip install -r requirements.txt

test:
  script:
    - python -m pytest
`,
  },
  {
    name: 'Ruby',
    content: `${HEADER}image: ruby:latest

cache:
  paths:
    - vendor/bundle

before_script:
  - bundle config set --local path vendor/bundle
  - bundle install --jobs "$(nproc)"

test:
  script:
    - bundle exec rake test
`,
  },
  {
    name: 'Rust',
    content: `${HEADER}image: rust:latest

variables:
  CARGO_HOME: "$CI_PROJECT_DIR/.cargo"

cache:
  paths:
    - .cargo/registry
    - target/

test:
  script:
    - cargo test --all-targets

lint:
  script:
    - rustup component add clippy
    - cargo clippy -- -D warnings
`,
  },
];

const PAGES: CiTemplate[] = [
  {
    name: 'HTML',
    content: `${HEADER}# Publishes the files under public/ as they are, from the default branch.
pages:
  stage: deploy
  script:
    - echo "Publishing public/"
  artifacts:
    paths:
      - public
  only:
    - master
`,
  },
  {
    name: 'Hugo',
    content: `${HEADER}# Builds the site with Hugo into public/ and publishes it from the default branch.
image: hugomods/hugo:latest

pages:
  stage: deploy
  script:
    - hugo --minify --destination public
  artifacts:
    paths:
      - public
  only:
    - master
`,
  },
  {
    name: 'Jekyll',
    content: `${HEADER}# Builds the site with Jekyll into public/ and publishes it from the default branch.
image: ruby:latest

variables:
  JEKYLL_ENV: production

before_script:
  - bundle install

pages:
  stage: deploy
  script:
    - bundle exec jekyll build -d public
  artifacts:
    paths:
      - public
  only:
    - master
`,
  },
];

/** The picker's templates (v3 `/gitlab_ci_ymls`, v4 `/templates/gitlab_ci_ymls`), by 8.13's headings. */
export const CI_TEMPLATES: readonly {
  label: string;
  /** Where GitLab's library keeps the group's files. */
  folder: string;
  templates: readonly CiTemplate[];
}[] = [
  { label: 'General', folder: '', templates: GENERAL },
  { label: 'Pages', folder: 'Pages/', templates: PAGES },
];

const SUFFIX = '.gitlab-ci.yml';

/** The picker's templates by the file name GitLab gives each in its library. */
const BY_FILE_NAME = new Map(
  CI_TEMPLATES.flatMap((group) =>
    group.templates.map((template): [string, string] => [
      `${group.folder}${template.name}${SUFFIX}`,
      template.content,
    ]),
  ),
);

// Workflows/MergeRequest-Pipelines: pipelines for merge requests, tags and the default branch only.
// Workflows/Branch-Pipelines: pipelines for tags and every branch, none for merge requests.
const WORKFLOWS: Record<string, string> = {
  'Workflows/MergeRequest-Pipelines.gitlab-ci.yml': `workflow:
  rules:
    - if: $CI_MERGE_REQUEST_IID
    - if: $CI_COMMIT_TAG
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Workflows/Branch-Pipelines.gitlab-ci.yml': `workflow:
  rules:
    - if: $CI_COMMIT_TAG
    - if: $CI_COMMIT_BRANCH
`,
};

/** A template's text, or GitLab's error for a name that is not one. */
export function ciTemplate(name: string): { text: string } | { error: string } {
  if (!name.endsWith(SUFFIX)) return { error: `Template file \`${name}\` is not a valid location!` };
  const text = WORKFLOWS[name] ?? BY_FILE_NAME.get(name);
  return text === undefined ? { error: `Included file \`${name}\` is empty or does not exist!` } : { text };
}
