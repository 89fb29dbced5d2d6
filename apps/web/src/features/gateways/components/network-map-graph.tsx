import '@xyflow/react/dist/style.css';
import { Text, useComputedColorScheme } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import type { Gateway } from '@palisade/contracts';
import {
  Background,
  BaseEdge,
  Controls,
  type Edge,
  type EdgeProps,
  getBezierPath,
  Handle,
  type Node,
  type NodeProps,
  Position,
  ReactFlow,
} from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CLOUD_ID, type MapStatus, type NetworkMapLayout } from '../utils/network-map-layout';
import { GatewayStatusBadge, useKindLabels, useRegionText, useStatusLabels } from './labels';
import classes from './network-map.module.css';
import { LINK_STYLES } from './network-map-legend';

type CloudNode = Node<{ label: string }, 'cloud'>;
type RegionNode = Node<{ label: string }, 'region'>;
type GatewayNode = Node<{ gateway: Gateway }, 'gateway'>;
type MapFlowNode = CloudNode | RegionNode | GatewayNode;
type LinkEdge = Edge<{ status: MapStatus }, 'link'>;

function CloudNodeView({ data }: NodeProps<CloudNode>) {
  return (
    <div className={classes.cloud}>
      <span aria-hidden>☁</span>
      {data.label}
      <Handle type="source" position={Position.Bottom} isConnectable={false} className={classes.handle} />
    </div>
  );
}

function RegionNodeView({ data }: NodeProps<RegionNode>) {
  return (
    <div className={classes.region} title={data.label}>
      <span className={classes.regionName}>{data.label}</span>
    </div>
  );
}

/** A gateway: its name linking to its page, its kind and its status in words. */
function GatewayNodeView({ data: { gateway } }: NodeProps<GatewayNode>) {
  const kindLabels = useKindLabels();
  return (
    <div className={classes.node} data-status={gateway.status}>
      <Handle type="target" position={Position.Top} isConnectable={false} className={classes.handle} />
      <Link
        to={`/cybernodes/view?id=${encodeURIComponent(gateway.id)}`}
        className={`${classes.name} nodrag nopan`}
      >
        {gateway.name}
      </Link>
      <Text size="xs" c="dimmed" truncate>
        {kindLabels[gateway.kind]}
      </Text>
      <div>
        <GatewayStatusBadge status={gateway.status} />
      </div>
      <Handle type="source" position={Position.Bottom} isConnectable={false} className={classes.handle} />
    </div>
  );
}

/** A link: solid and with a dot moving along it when up (unless motion is reduced), dashed or dotted when not. */
function LinkEdgeView({
  id,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  data,
}: EdgeProps<LinkEdge>) {
  const isReducedMotion = useReducedMotion() ?? false;
  const status = data?.status ?? 'offline';
  const [path] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  return (
    <>
      <BaseEdge id={id} path={path} style={LINK_STYLES[status]} />
      {status === 'online' && !isReducedMotion ? (
        <circle r={4} fill="var(--mantine-color-green-7)">
          <animateMotion dur="2.5s" repeatCount="indefinite" path={path} />
        </circle>
      ) : null}
    </>
  );
}

const NODE_TYPES = { cloud: CloudNodeView, region: RegionNodeView, gateway: GatewayNodeView };
const EDGE_TYPES = { link: LinkEdgeView };

/** Props of {@link NetworkMapGraph}. */
export interface NetworkMapGraphProps {
  layout: NetworkMapLayout;
  /** The accessible name of the graph. */
  label: string;
  /** The id of the text that describes it (the legend). */
  describedBy?: string;
}

/**
 * The network map drawn with React Flow: fixed boxes (nothing is dragged or connected by hand), zoom and pan,
 * the colour scheme of the app. Every box and link has a translated accessible name (a link: "from → to:
 * status"); the list beside the graph says the same for those who cannot use it.
 */
export function NetworkMapGraph({ layout, label, describedBy }: NetworkMapGraphProps) {
  const { t } = useTranslation();
  const colorScheme = useComputedColorScheme('light');
  const kindLabels = useKindLabels();
  const statusLabels = useStatusLabels();
  const regionText = useRegionText();
  const cloudLabel = t('gateways.map.cloud', 'Palisade cloud');

  // Worked out on each render: the screen renders it again only when the gateways or the language changed.
  const names = new Map<string, string>([[CLOUD_ID, cloudLabel]]);
  const nodes: MapFlowNode[] = layout.nodes.map((mapNode) => {
    const box = {
      id: mapNode.id,
      position: { x: mapNode.x, y: mapNode.y },
      width: mapNode.width,
      height: mapNode.height,
      ariaRole: 'group' as const,
    };
    if (mapNode.type === 'cloud') {
      return { ...box, type: 'cloud', data: { label: cloudLabel }, ariaLabel: cloudLabel };
    }
    if (mapNode.type === 'region') {
      // The box shows the region's name; its accessible name says it is a region.
      const name = regionText(mapNode.region);
      const text = t('gateways.map.region', 'Region {{region}}', { region: name });
      return { ...box, type: 'region', data: { label: name }, ariaLabel: text, zIndex: -1 };
    }
    const { gateway } = mapNode;
    names.set(gateway.id, gateway.name);
    return {
      ...box,
      type: 'gateway',
      data: { gateway },
      ...(mapNode.parentId ? { parentId: mapNode.parentId, extent: 'parent' as const } : {}),
      ariaLabel: t('gateways.map.nodeLabel', '{{name}}, {{kind}}, {{status}}', {
        name: gateway.name,
        kind: kindLabels[gateway.kind],
        status: statusLabels[gateway.status],
      }),
    };
  });
  const edges: LinkEdge[] = layout.edges.map((edge) => ({
    id: edge.id,
    source: edge.source,
    target: edge.target,
    type: 'link',
    data: { status: edge.status },
    ariaLabel: t('gateways.map.linkLabel', 'Link from {{from}} to {{to}}: {{status}}', {
      from: names.get(edge.source) ?? edge.source,
      to: names.get(edge.target) ?? edge.target,
      status: statusLabels[edge.status],
    }),
  }));

  return (
    <section className={classes.canvas} aria-label={label} aria-describedby={describedBy}>
      <ReactFlow<MapFlowNode, LinkEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        colorMode={colorScheme}
        fitView
        fitViewOptions={{ padding: 0.12 }}
        minZoom={0.05}
        maxZoom={2}
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        ariaLabelConfig={{
          'controls.ariaLabel': t('gateways.map.controls', 'Zoom controls'),
          'controls.zoomIn.ariaLabel': t('gateways.map.zoomIn', 'Zoom in'),
          'controls.zoomOut.ariaLabel': t('gateways.map.zoomOut', 'Zoom out'),
          'controls.fitView.ariaLabel': t('gateways.map.fitView', 'Fit the whole map'),
          'handle.ariaLabel': t('gateways.map.handle', 'Link anchor'),
        }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </section>
  );
}
