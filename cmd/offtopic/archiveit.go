package main

import (
	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/remote"
	"github.com/offtopic/offtopic/timemap"
)

// archiveItFlags point --archiveit elsewhere (a mirror, or a test server).
func archiveItFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "archiveit-wayback", Value: remote.DefaultArchiveItWayback, Usage: "Archive-It's Wayback `URL`"},
		&cli.StringFlag{Name: "archiveit-site", Value: remote.DefaultArchiveItSite, Usage: "where Archive-It's public collection pages are (`URL`)"},
	}
}

// archiveItSource is the source of --archiveit: the collection's seeds and
// their TimeMaps from Archive-It's public Wayback.
func archiveItSource(c *cli.Context, client *remote.Client, st *setup) (timemap.Source, error) {
	return &remote.ArchiveIt{Collection: c.String("archiveit"), Doer: client,
		BaseURL: c.String("archiveit-wayback"), CollectionBaseURL: c.String("archiveit-site")}, nil
}
