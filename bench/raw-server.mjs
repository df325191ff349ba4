// The baseline of `npm run bench`: a raw node:http server answering each route with the very body
// Labrador answered for it (read from a JSON file of { "METHOD /path?query": { status, body } }), after
// checking PRIVATE-TOKEN, with JSON.stringify per request. Prints its port.
//   node bench/raw-server.mjs <routes.json> <token>
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import http from 'node:http';

const [routesFile, token] = process.argv.slice(2);
const routes = new Map(Object.entries(JSON.parse(fs.readFileSync(routesFile, 'utf8'))));
const server = http.createServer((request, response) => {
  // A body (POST) is read to its end first, as a real server must.
  request.resume();
  request.on('end', () => {
    if (request.headers['private-token'] !== token) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"message":"401 Unauthorized"}');
      return;
    }
    const route = routes.get(`${request.method} ${request.url}`);
    if (!route) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"404 Not Found"}');
      return;
    }
    const body = JSON.stringify(route.body);
    response.writeHead(route.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
});
server.keepAliveTimeout = 65000;
// PORT: a port chosen by the caller (bench/cpu-per-request.mjs --raw); else any free one.
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
