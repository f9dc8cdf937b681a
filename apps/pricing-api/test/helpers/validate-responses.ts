// Every response a test receives through supertest must match its operation in the OpenAPI document.
import { pricingApiDocument } from "@cloudcost/openapi";
import { validateResponsesAgainst } from "@cloudcost/testing";

validateResponsesAgainst(pricingApiDocument());
