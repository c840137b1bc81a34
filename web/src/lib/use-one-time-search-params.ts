import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/**
 * The page's query parameters as they were when it opened; the address bar then drops them (a history replace, so
 * Back does not bring them back). Single-use secrets in a URL, an OAuth code and state or an emailed token, should
 * not stay in the browser history, be bookmarked, or show in a screenshot or a shared screen (RFC 9700 §4.2.4,
 * docs/security.md#oauth-connections). The page keeps working from the captured copy.
 */
export function useOneTimeSearchParams(): URLSearchParams {
  const [searchParams] = useSearchParams();
  const [captured] = useState(() => new URLSearchParams(searchParams));
  const location = useLocation();
  const navigate = useNavigate();
  const hasSearch = location.search !== '';
  useEffect(() => {
    if (hasSearch) void navigate({ pathname: location.pathname, hash: location.hash }, { replace: true, state: location.state });
  }, [hasSearch, location.hash, location.pathname, location.state, navigate]);
  return captured;
}
