/**
 * The session key that carries a route change into the next document on an islands page
 * (decision 0033): its value is the path the visitor asked for, and the root's inline script
 * shows the cover when the new page is that path (not after a redirect or a download).
 */
export const ROUTE_CHANGE_KEY = "masthead.route-change";

/** The inline script (run before the first paint) that marks the document when a route change brought the visitor here. */
export const ROUTE_CHANGE_SCRIPT = `try{var k=${JSON.stringify(ROUTE_CHANGE_KEY)},s=sessionStorage,v=s.getItem(k);s.removeItem(k);if(v===location.pathname+location.search)document.documentElement.dataset.routeChange=""}catch(e){}`;
