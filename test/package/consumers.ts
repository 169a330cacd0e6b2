/**
 * Two consumer programs of the installed package, type-checked by the package test under each
 * module system and TypeScript version: one ES module and one CommonJS module, each importing
 * every entry. Each `@ts-expect-error` is a misuse that must fail: an entry whose types did not
 * resolve would type as `any`, accept the misuse and leave the directive unused (an error too).
 */

/** An ES module (`consumer.mts`) importing every entry and using a few of their types. */
export const ESM_CONSUMER = `
import {
  createAesGcmCipher,
  createRestServer,
  defineSettings,
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  MemoryOptionStore,
  type OptionStore,
  type RestServer,
  type SettingObject,
} from 'commerce-plugin-framework';
import { compileArgs, FetchExchange } from 'commerce-plugin-framework/adapter-kit';
import { escapeHtml, Framework_Register_Settings } from 'commerce-plugin-framework/admin';
import { toExpressRouter } from 'commerce-plugin-framework/express';
import { fastifyPlugin } from 'commerce-plugin-framework/fastify';
import { toHonoApp } from 'commerce-plugin-framework/hono';
import { type NodeRequestHandler, toNodeHandler } from 'commerce-plugin-framework/node';
import { generateOpenApiDocument, type OpenApiDocument } from 'commerce-plugin-framework/openapi';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { testOptionStore } from 'commerce-plugin-framework/testing';

class Shop extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('retries', 'integer', { default: 3 });
  }
}
const Typed = defineSettings({ enabled: { type: 'boolean', default: false } });
const store: OptionStore = new MemoryOptionStore();
const setting: SettingObject | undefined = new Shop('shop', store).getSetting('retries')?.toJSON();
const enabled: Promise<boolean> = new Typed('typed', store).getValue('enabled');
const server: RestServer = createRestServer({ plugins: [] });
const handler: NodeRequestHandler = toNodeHandler(server);
const document: OpenApiDocument = generateOpenApiDocument(server, { title: 'Shop', version: '1' });
const code: number = new Framework_Plugin_Exception('x', 400).code;
const html: string = escapeHtml('<b>');
export { setting, enabled, handler, document, code, html };
export type Used = [typeof compileArgs, typeof toHonoApp, typeof testOptionStore];

// @ts-expect-error -- 'x' is no boolean
new Typed('typed', store).updateValue('enabled', 'x');
// @ts-expect-error -- a number is no REST server
toNodeHandler(1);
// @ts-expect-error -- a number is no REST server
toHonoApp(1);
// @ts-expect-error -- a number is no REST server
toExpressRouter(1);
// @ts-expect-error -- a number is no REST server
fastifyPlugin(1);
// @ts-expect-error -- a number is no REST server
generateOpenApiDocument(1, { title: 'x', version: '1' });
// @ts-expect-error -- needs its options
new PostgresOptionStore();
// @ts-expect-error -- needs its options
new RedisOptionStore();
// @ts-expect-error -- needs a name and a store factory
testOptionStore();
// @ts-expect-error -- a number is no plugin
new Framework_Register_Settings(1);
// @ts-expect-error -- a number is no request
new FetchExchange(1);
// @ts-expect-error -- a number is no key list
createAesGcmCipher(1);
// @ts-expect-error -- a number is no argument schema
compileArgs(1);
`;

/** A CommonJS module (`consumer.cts`) requiring every entry and using a few of their types. */
export const CJS_CONSUMER = `
import cpf = require('commerce-plugin-framework');
import kit = require('commerce-plugin-framework/adapter-kit');
import admin = require('commerce-plugin-framework/admin');
import express = require('commerce-plugin-framework/express');
import fastify = require('commerce-plugin-framework/fastify');
import hono = require('commerce-plugin-framework/hono');
import node = require('commerce-plugin-framework/node');
import openapi = require('commerce-plugin-framework/openapi');
import postgres = require('commerce-plugin-framework/stores/postgres');
import redis = require('commerce-plugin-framework/stores/redis');
import testing = require('commerce-plugin-framework/testing');

const server: cpf.RestServer = cpf.createRestServer({ plugins: [] });
const error: cpf.Framework_Plugin_Exception = new cpf.Framework_Plugin_Exception('x', 400);
const handler: node.NodeRequestHandler = node.toNodeHandler(server);
const document: openapi.OpenApiDocument = openapi.generateOpenApiDocument(server, { title: 'Shop', version: '1' });
const store: cpf.OptionStore = new cpf.MemoryOptionStore();
export = { error, handler, document, store };

// @ts-expect-error -- a number is no REST server
hono.toHonoApp(1);
// @ts-expect-error -- a number is no REST server
express.toExpressRouter(1);
// @ts-expect-error -- a number is no REST server
fastify.fastifyPlugin(1);
// @ts-expect-error -- needs its options
new postgres.PostgresOptionStore();
// @ts-expect-error -- needs its options
new redis.RedisOptionStore();
// @ts-expect-error -- needs a name and a store factory
testing.testOptionStore();
// @ts-expect-error -- a number is no plugin
new admin.Framework_Register_Settings(1);
// @ts-expect-error -- a number is no request
new kit.FetchExchange(1);
`;
