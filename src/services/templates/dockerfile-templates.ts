// Labrador's own Dockerfile templates, written for it: a small image per toolchain, the build in one
// stage and, where the toolchain compiles, a slim stage that only runs the result. Sorted by name.
import type { TemplateGroup } from './file-templates.ts';

const HEADER = '# A template: adjust the base image, the paths and the command to your project.\n';

export const DOCKERFILE_TEMPLATES: readonly TemplateGroup[] = [
  {
    label: 'Dockerfiles',
    templates: [
      {
        name: 'Go',
        content: `${HEADER}FROM golang:1 AS build
WORKDIR /src
COPY go.mod go.sum* ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -o /out/app .

FROM gcr.io/distroless/static-debian12
COPY --from=build /out/app /app
ENTRYPOINT ["/app"]
`,
      },
      {
        name: 'HTTPd',
        content: `${HEADER}# Serves the files under public/ with Apache's httpd.
FROM httpd:2.4
COPY ./public/ /usr/local/apache2/htdocs/
`,
      },
      {
        name: 'Node',
        content: `${HEADER}FROM node:lts-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json* ./
RUN npm ci --omit=dev
COPY . .
USER node
EXPOSE 3000
CMD ["node", "index.js"]
`,
      },
      {
        name: 'Python',
        content: `${HEADER}FROM python:3-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
CMD ["python", "main.py"]
`,
      },
      {
        name: 'Ruby',
        content: `${HEADER}FROM ruby:3-slim
WORKDIR /app
COPY Gemfile Gemfile.lock* ./
RUN bundle config set --local without 'development test' && bundle install
COPY . .
CMD ["bundle", "exec", "ruby", "app.rb"]
`,
      },
      {
        name: 'Rust',
        content: `${HEADER}FROM rust:1 AS build
WORKDIR /src
COPY . .
RUN cargo install --path . --root /out

FROM debian:stable-slim
COPY --from=build /out/bin/ /usr/local/bin/
# Change \`app\` to the name of the binary the crate builds.
CMD ["app"]
`,
      },
    ],
  },
];
