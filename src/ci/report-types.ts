// Job artifacts beside the archive, as today's GitLab types them: each report of `artifacts:reports`
// reaches the runner as its own entry of the job's `artifacts` (the runner gathers the paths and uploads
// them with `artifact_type` and `artifact_format`), and is kept as an artifact of that type.
// `coverage_report: {coverage_format: cobertura, path}` is uploaded as type `cobertura`.

/** Each uploadable report type: the format the runner sends it in and the name GitLab gives the file. */
export const REPORT_TYPES: Record<string, { format: 'gzip' | 'raw' | 'zip'; filename: string }> = {
  junit: { format: 'gzip', filename: 'junit.xml' },
  metrics: { format: 'gzip', filename: 'metrics.txt' },
  dotenv: { format: 'gzip', filename: '.env' },
  cobertura: { format: 'gzip', filename: 'cobertura-coverage.xml' },
  lsif: { format: 'zip', filename: 'lsif.json' },
  cyclonedx: { format: 'gzip', filename: 'gl-sbom.cdx.json' },
  annotations: { format: 'gzip', filename: 'gl-annotations.json' },
  repository_xray: { format: 'gzip', filename: 'gl-repository-xray.json' },
  sast: { format: 'raw', filename: 'gl-sast-report.json' },
  secret_detection: { format: 'raw', filename: 'gl-secret-detection-report.json' },
  dependency_scanning: { format: 'raw', filename: 'gl-dependency-scanning-report.json' },
  container_scanning: { format: 'raw', filename: 'gl-container-scanning-report.json' },
  cluster_image_scanning: { format: 'raw', filename: 'gl-cluster-image-scanning-report.json' },
  dast: { format: 'raw', filename: 'gl-dast-report.json' },
  license_scanning: { format: 'raw', filename: 'gl-license-scanning-report.json' },
  accessibility: { format: 'raw', filename: 'gl-accessibility.json' },
  codequality: { format: 'raw', filename: 'gl-code-quality-report.json' },
  performance: { format: 'raw', filename: 'performance.json' },
  browser_performance: { format: 'raw', filename: 'browser-performance.json' },
  load_performance: { format: 'raw', filename: 'load-performance.json' },
  terraform: { format: 'raw', filename: 'tfplan.json' },
  requirements: { format: 'raw', filename: 'requirements.json' },
  requirements_v2: { format: 'raw', filename: 'requirements_v2.json' },
  coverage_fuzzing: { format: 'raw', filename: 'gl-coverage-fuzzing.json' },
  api_fuzzing: { format: 'raw', filename: 'gl-api-fuzzing-report.json' },
};

export interface ReportArtifact {
  artifact_type: string;
  artifact_format: string;
  name: string;
  paths: string[];
  when: 'always';
  expire_in?: string;
}

/** The runner's entries for a job's `artifacts:reports` (reports are uploaded whatever the outcome). */
export function reportArtifacts(reports: unknown, expireIn: unknown): ReportArtifact[] {
  if (reports === null || typeof reports !== 'object' || Array.isArray(reports)) return [];
  const result: ReportArtifact[] = [];
  for (const [key, value] of Object.entries(reports as Record<string, unknown>)) {
    let type = key;
    let paths: unknown = value;
    if (key === 'coverage_report' && value !== null && typeof value === 'object') {
      const coverage = value as { coverage_format?: unknown; path?: unknown };
      type = String(coverage.coverage_format);
      paths = [coverage.path];
    }
    const known = REPORT_TYPES[type];
    if (!known || !Array.isArray(paths)) continue;
    result.push({
      artifact_type: type,
      artifact_format: known.format,
      name: known.filename,
      paths: paths.filter((p): p is string => typeof p === 'string'),
      when: 'always',
      ...(typeof expireIn === 'string' ? { expire_in: expireIn } : {}),
    });
  }
  return result;
}
