// Every web test file: how long Testing Library's findBy… and waitFor wait for what they look for.
import { configure } from '@testing-library/react';

// The default second is a time, not a condition: a screen's first chart imports chart.js lazily, and on CI's two
// cores, shared with the server's tests, that import alone took over a second (analytics-page, issue 26). The tests
// wait for what they name; this is only how long before a missing thing counts as a failure.
configure({ asyncUtilTimeout: 10_000 });
