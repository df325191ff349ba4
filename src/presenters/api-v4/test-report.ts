// A pipeline's test report as GitLab's TestReportEntity (with its suites' cases) and
// TestReportSummaryEntity (totals, then each suite's counts and build ids).
import type { TestCase, TestStatus } from '../../ci/junit.ts';
import type { TestSuiteView } from '../../views/test-report-views.ts';

/** Cases in GitLab's order: failed, error, success, skipped; the slowest first within each. */
const ORDER: TestStatus[] = ['failed', 'error', 'success', 'skipped'];

function counts(cases: TestCase[]) {
  const count = (status: TestStatus) => cases.filter((c) => c.status === status).length;
  return {
    total_time: cases.reduce((sum, c) => sum + c.execution_time, 0),
    total_count: cases.length,
    success_count: count('success'),
    failed_count: count('failed'),
    skipped_count: count('skipped'),
    error_count: count('error'),
  };
}

/** A suite whose report could not be read counts nothing, as GitLab. */
const casesOf = (suite: TestSuiteView) => (suite.suiteError ? [] : suite.cases);

function presentCase(test: TestCase) {
  return {
    status: test.status,
    name: test.name,
    classname: test.classname,
    file: test.file,
    execution_time: test.execution_time,
    system_output: test.system_output,
    stack_trace: null,
    recent_failures: null,
  };
}

export function presentTestReport(suites: TestSuiteView[]) {
  return {
    ...counts(suites.flatMap(casesOf)),
    test_suites: suites.map((suite) => {
      const cases = casesOf(suite);
      const sorted = ORDER.flatMap((status) =>
        cases.filter((c) => c.status === status).sort((a, b) => b.execution_time - a.execution_time),
      );
      return {
        name: suite.name,
        ...counts(cases),
        suite_error: suite.suiteError,
        test_cases: sorted.map(presentCase),
      };
    }),
  };
}

export function presentTestReportSummary(suites: TestSuiteView[]) {
  const total = counts(suites.flatMap(casesOf));
  return {
    total: {
      time: total.total_time,
      count: total.total_count,
      success: total.success_count,
      failed: total.failed_count,
      skipped: total.skipped_count,
      error: total.error_count,
      suite_error: suites.find((suite) => suite.suiteError)?.suiteError ?? null,
    },
    test_suites: suites.map((suite) => ({
      name: suite.name,
      ...counts(casesOf(suite)),
      build_ids: suite.buildIds,
      suite_error: suite.suiteError,
    })),
  };
}
